// Package scale writes tool specs of any size, shaped like an imported REST
// API, to measure how the generator and the code it writes grow with a spec
// (issue 9). `make scale` (the program in ./run) generates and builds them;
// gen's benchmarks profile the generator on them.
//
// Every tool has six parameters, some nested, in four shapes that cycle
// (list, create, update, get), over a hundred resource names: a spec of n
// tools has n distinct tool names, descriptions and enum value sets, and the
// repetition a real API has (pagination, expand lists, addresses, ids).
package scale

import (
	"fmt"
	"strings"
)

// Provider is the provider of every spec Spec writes.
const Provider = "big"

// nouns are the resources the tools act on.
var nouns = []string{
	"customer", "invoice", "charge", "refund", "payout", "product", "price", "coupon",
	"discount", "subscription", "plan", "quote", "order", "shipment", "dispute", "transfer",
	"account", "balance", "card", "source", "token", "session", "event", "file",
	"mandate", "review", "report", "topup", "person", "location", "reader", "terminal",
	"tax_rate", "tax_id", "credit_note", "payment_link", "promotion", "setup_intent", "webhook", "usage_record",
}

// Spec returns a spec of n tools (n ≥ 1).
func Spec(n int) []byte {
	var b strings.Builder
	b.WriteString("toolgen: 1\n")
	b.WriteString("provider: " + Provider + "\n")
	b.WriteString("description: A large imported API, written by internal/scale.\n")
	b.WriteString("gate: big\n")
	b.WriteString("gate_message: The big API is not connected for this account.\n")
	b.WriteString("tools:\n")
	for i := range n {
		writeTool(&b, i)
	}
	return []byte(b.String())
}

func writeTool(b *strings.Builder, i int) {
	noun := nouns[(i/4)%len(nouns)]
	round := i / (4 * len(nouns))
	suffix := ""
	if round > 0 {
		suffix = fmt.Sprintf("_v%d", round+1)
	}
	title := strings.ReplaceAll(noun, "_", " ")
	p := func(format string, args ...any) { fmt.Fprintf(b, format+"\n", args...) }
	// Enum values differ from tool to tool, as in a real API.
	e := func(k int) string { return fmt.Sprintf("s%d_%d", i%7, k) }
	switch i % 4 {
	case 0:
		p("  - name: %s_list_%ss%s", Provider, noun, suffix)
		p("    description: List %ss, newest first, optionally filtered by status and creation time.", title)
		p("    read_only: true")
		p(`    status: "Listing %ss after {starting_after}"`, title)
		p("    status_fallback: Listing %ss", title)
		p("    params:")
		p("      limit: {type: integer, minimum: 1, maximum: 100, default: 10, description: How many %ss to return (1-100).}", title)
		p("      starting_after: {type: string, maxLength: 64, description: A %s id; the page starts after it.}", title)
		p("      status: {type: string, enum: [%s, %s, %s], description: Only %ss with this status.}", e(0), e(1), e(2), title)
		p("      email: {type: string, format: email, description: Only %ss of the customer with this email.}", title)
		p("      expand:")
		p("        type: array")
		p("        items: {type: string, minLength: 1, maxLength: 100}")
		p("        maxItems: 10")
		p("        uniqueItems: true")
		p("        description: Fields of each %s to expand.", title)
		p("      created:")
		p("        type: object")
		p("        description: Only %ss created in this range (Unix seconds).", title)
		p("        properties:")
		p("          gte: {type: integer, minimum: 0, description: Created at or after.}")
		p("          lte: {type: integer, minimum: 0, description: Created at or before.}")
	case 1:
		p("  - name: %s_create_%s%s", Provider, noun, suffix)
		p("    description: Create a %s.", title)
		p("    destructive: true")
		p(`    status: "Creating %s {name}"`, title)
		p("    params:")
		p("      name: {type: string, minLength: 1, maxLength: 200, description: The %s's display name.}", title)
		p("      email: {type: string, format: email, description: The billing email of the %s.}", title)
		p("      amount: {type: integer, minimum: 0, description: Amount in the currency's minor unit.}")
		p("      currency: {type: string, enum: [usd, eur, gbp], default: usd, description: Three-letter ISO currency code.}")
		p("      address:")
		p("        type: object")
		p("        description: The %s's postal address.", title)
		p("        properties:")
		p("          line1: {type: string, minLength: 1, maxLength: 200}")
		p("          city: {type: string, maxLength: 100}")
		p(`          postal_code: {type: string, pattern: "^[A-Z0-9 -]{3,10}$"}`)
		p("          country: {type: string, minLength: 2, maxLength: 2}")
		p("        required: [line1]")
		p("      metadata:")
		p("        type: object")
		p("        additionalProperties: {type: string, maxLength: 500}")
		p("        description: Key-value pairs to store with the %s.", title)
		p("    required: [name, amount]")
		p("    result:")
		p("      type: object")
		p("      properties:")
		p("        id: {type: string}")
		p("        created: {type: integer}")
		p("      required: [id, created]")
	case 2:
		p("  - name: %s_update_%s%s", Provider, noun, suffix)
		p("    description: Update a %s; parameters left out keep their value.", title)
		p("    idempotent: true")
		p(`    status: "Updating %s {id}"`, title)
		p("    params:")
		p(`      id: {type: string, pattern: "^[a-z]+_[A-Za-z0-9]+$", description: The id of the %s to update.}`, title)
		p("      description: {type: string, maxLength: 1000, description: A note about the %s.}", title)
		p("      active: {type: boolean, description: Whether the %s can be used.}", title)
		p("      due: {type: string, format: date-time, description: When the %s is due.}", title)
		p("      items:")
		p("        type: array")
		p("        minItems: 1")
		p("        maxItems: 20")
		p("        description: The lines of the %s.", title)
		p("        items:")
		p("          type: object")
		p("          properties:")
		p("            price: {type: string, minLength: 1, maxLength: 64}")
		p("            quantity: {type: integer, minimum: 1, maximum: 1000, default: 1}")
		p("          required: [price]")
		p("      priority: {type: string, enum: [%s, %s], description: How urgent the change is.}", e(3), e(4))
		p("    required: [id]")
	case 3:
		p("  - name: %s_get_%s%s", Provider, noun, suffix)
		p("    description: Get one %s by id.", title)
		p("    read_only: true")
		p("    idempotent: true")
		p(`    status: "Fetching %s {id}"`, title)
		p("    params:")
		p(`      id: {type: string, pattern: "^[a-z]+_[A-Za-z0-9]+$", description: The id of the %s.}`, title)
		p("      expand:")
		p("        type: array")
		p("        items: {type: string, minLength: 1, maxLength: 100}")
		p("        maxItems: 10")
		p("        uniqueItems: true")
		p("        description: Fields of the %s to expand.", title)
		p("      version: {type: integer, minimum: 1, description: A past version of the %s.}", title)
		p("      include_deleted: {type: boolean, default: false, description: Also find a deleted %s.}", title)
		p("      view: {type: string, enum: [%s, %s, %s], default: %s, description: How much of the %s to return.}", e(5), e(6), e(7), e(5), title)
		p("      locale: {type: string, minLength: 2, maxLength: 5, description: The language of the %s's texts.}", title)
		p("    required: [id]")
	}
}
