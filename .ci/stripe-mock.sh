#!/usr/bin/env bash
# Installs the pinned stripe-mock (the Stripe API mock server that stripe-go's
# own tests use) unless it is already there, and exports STRIPE_MOCK_BIN for
# internal/stripemock. Works when sourced (by .ci/run) or executed.
#
#   STRIPE_MOCK_VERSION  version to install (default: the pinned one below)
#   STRIPE_MOCK_DIR      bin dir to install into (default: $(go env GOPATH)/bin)
#
# v0.180.0 (January 2024) serves API version 2023-10-16, the one stripe-go
# v76 sends; v0.162.0 serves 2022-11-15, v0.175.0 2023-08-16 and v0.203.0
# 2026-08-26.dahlia. internal/stripemock starts it with
# -strict-version-check, so a binary serving another API version refuses the
# first request and the tests say so. Keep this in step with
# internal/stripemock.Version.

STRIPE_MOCK_VERSION="${STRIPE_MOCK_VERSION:-v0.180.0}"
STRIPE_MOCK_DIR="${STRIPE_MOCK_DIR:-$(go env GOPATH)/bin}"
STRIPE_MOCK_BIN="$STRIPE_MOCK_DIR/stripe-mock"

# A binary built by go install reports "master" for -version; the module
# version recorded in the binary is what tells versions apart.
_stripe_mock_have() {
	[ -x "$STRIPE_MOCK_BIN" ] &&
		go version -m "$STRIPE_MOCK_BIN" 2>/dev/null |
		awk -v v="$STRIPE_MOCK_VERSION" '$1 == "mod" && $2 == "github.com/stripe/stripe-mock" && $3 == v { found = 1 } END { exit !found }'
}

if _stripe_mock_have; then
	echo "== stripe-mock ${STRIPE_MOCK_VERSION} already at $STRIPE_MOCK_BIN"
else
	echo "== installing stripe-mock ${STRIPE_MOCK_VERSION} into $STRIPE_MOCK_DIR"
	mkdir -p "$STRIPE_MOCK_DIR"
	# GOFLAGS may carry -mod settings meant for this module; not for go install.
	GOBIN="$STRIPE_MOCK_DIR" GOFLAGS=-buildvcs=false \
		go install "github.com/stripe/stripe-mock@${STRIPE_MOCK_VERSION}" || true
fi
export STRIPE_MOCK_BIN
if ! _stripe_mock_have; then
	unset -f _stripe_mock_have
	echo "stripe-mock: could not install ${STRIPE_MOCK_VERSION} into $STRIPE_MOCK_DIR" >&2
	# Sourced: return to the caller (whose set -e stops it); executed: exit.
	return 1 2>/dev/null || exit 1
fi
unset -f _stripe_mock_have
