# Each target is a one-liner over the Go toolchain.
.PHONY: generate check test bench proptest scale quickstart demo

# Regenerate every module from its spec (*.tools.yaml).
generate:
	go generate ./...

# Fail (exit 1, listing them) when generated files are out of date.
check:
	go run ./cmd/toolgen check ./...

# Every test, with the race detector, against the services CI uses (a
# loopback PostgreSQL and stripe-mock, started when they are installable;
# see .ci/test); ends with the skipped tests and why, and a count.
test:
	@bash .ci/test

# The property-based test of the generated decoders, longer than make test
# runs it: ROUNDS random specs (60 tools each) from SEED, compiled and
# compared with an independent JSON Schema validator.
ROUNDS ?= 40
SEED ?= 1
proptest:
	go test -count=1 -run=RandomSpecs -timeout=60m ./internal/proptest -proptest.rounds=$(ROUNDS) -proptest.seed=$(SEED) -v

# Every benchmark, with allocations; BENCH picks some, as in
# make bench BENCH=Decode (generated decode vs encoding/json, side by side).
BENCH ?= .
bench:
	go test -run=^$$ -bench='$(BENCH)' -benchmem ./...

# Generated code at API scale: generate and go build specs of 10, 100 and
# 1,000 tools (internal/scale), with times, peak RSS and generated lines;
# TOOLS and RUNS pick other sizes, as in make scale TOOLS=1000 RUNS=1.
TOOLS ?= 10,100,1000
RUNS ?= 3
scale:
	go run ./internal/scale/run -tools '$(TOOLS)' -runs '$(RUNS)'

# The quick start: a registry, the example module, a few calls.
quickstart:
	go run ./examples/quickstart

# The whole thing end to end: install the pinned stripe-mock if it is missing
# (without it the demo explains why and skips its Stripe part), regenerate
# the modules, and play a scripted conversation over stripe, hitl (SQLite), the
# example module and the native fallback. Exits 1 if a step goes off script.
demo:
	@bash .ci/stripe-mock.sh || true
	go run ./cmd/toolgen generate ./generated/...
	go run ./examples/demo

# Import all of stripe-mock's OpenAPI document (about 500 operations),
# generate it and compile the package: several minutes and gigabytes, so not
# part of make test (which imports and generates it, and compiles a selection).
.PHONY: openapi-stripe
openapi-stripe:
	TOOLGEN_OPENAPI_STRIPE_BUILD=1 go test ./spec/openapi -run TestStripeWholeBuild -count=1 -v -timeout 60m
