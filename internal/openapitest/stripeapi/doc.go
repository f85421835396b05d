// Package stripeapi is a selection of Stripe's API imported from stripe-mock's
// own OpenAPI document (spec3.json) by `toolgen import openapi`: customers,
// invoices and invoice items, prices, products and payment links. Its tools'
// executors are generated (HTTP-bound tools) and call the API through
// runtime/httpapi; its tests dispatch them against a running stripe-mock.
// spec/openapi's TestStripeSelection re-imports the document and checks that
// stripeapi.tools.yaml is current.
package stripeapi

//go:generate go run ../../../cmd/toolgen
