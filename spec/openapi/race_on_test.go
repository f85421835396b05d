//go:build race

package openapi

// raceEnabled: the race detector makes importing the whole Stripe document
// take minutes; those tests run in make test's second, race-free pass.
const raceEnabled = true
