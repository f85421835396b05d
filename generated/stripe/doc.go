// Package stripe is the toolgen module of seven billing tools over the
// calling user's Stripe account, on github.com/stripe/stripe-go/v76:
// stripe_list_customers, stripe_list_payments, stripe_list_subscriptions,
// stripe_create_payment_link, stripe_create_invoice,
// stripe_create_subscription and stripe_revenue_metrics.
//
// The spec is stripe.tools.yaml; stripe_tools.gen.go is generated from it,
// and the executors in stripe_tools.go are written by hand.
//
// A host registers the module with a KeySource, which looks up the calling
// user's Stripe secret key, and answers the module's "stripe" gate with the
// same KeySource, so that users without a key never see the tools:
//
//	keys := myKeys{}                       // implements stripe.KeySource
//	reg := runtime.NewRegistry(runtime.Options{Gates: stripe.Gates(keys, nil)})
//	err := reg.AddModule(stripe.Module(&stripe.Tools{Keys: keys}))
//
// Each call uses a client built for the caller's key; the package never sets
// stripe-go's global stripe.Key. Results are compact JSON: the fields a model
// needs, with every amount as {"amount_minor", "currency", "display"} so the
// unit is never ambiguous. The create tools are destructive and ask for a
// person's approval by default; they send Stripe an idempotency key derived
// from the tool call, so a retried call does not create twice.
package stripe

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen
