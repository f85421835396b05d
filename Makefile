# Each target is a one-liner over the Go toolchain.
.PHONY: generate check test bench quickstart

# Regenerate every module from its spec (*.tools.yaml).
generate:
	go generate ./...

# Fail (exit 1, listing them) when generated files are out of date.
check:
	go run ./cmd/toolgen check ./...

# Every test, with the race detector.
test:
	go test -race -count=1 ./...

# Every benchmark, with allocations.
bench:
	go test -run=^$$ -bench=. -benchmem ./...

# The quick start: a registry, the example module, a few calls.
quickstart:
	go run ./examples/quickstart
