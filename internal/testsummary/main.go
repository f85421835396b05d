// Command testsummary reads `go test -json` on standard input and prints
// what a plain `go test` prints (each package's ok or FAIL line, the
// output of failed tests, build errors), then one line on the tests that
// were skipped and why, and a closing "N passed, N failed, N skipped" line.
// It exits 1 when a test or a package failed. make test runs it (see
// .ci/test), so that skips are never hidden.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// event is one line of go test -json (see cmd/test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string
}

// located is the "file.go:12: " a t.Skip message starts with.
var located = regexp.MustCompile(`^\s*[\w.-]+\.go:\d+: `)

func main() {
	os.Exit(run(os.Stdin, os.Stdout))
}

func run(in io.Reader, out io.Writer) int {
	type key struct{ pkg, test string }
	logs := map[key][]string{}
	reasons := map[string]int{}
	var passed, failed, skipped int
	pkgFailed := false
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			fmt.Fprintln(out, sc.Text()) // not an event: pass it on
			continue
		}
		k := key{e.Package, e.Test}
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Action == "output" && e.Test == "":
			// Package lines: ok/FAIL, and output outside any test.
			if s := strings.TrimSpace(e.Output); s != "PASS" && !strings.HasPrefix(s, "=== ") && s != "" {
				fmt.Fprint(out, e.Output)
			}
		case e.Action == "output":
			logs[k] = append(logs[k], e.Output)
		case e.Action == "pass" && e.Test != "":
			passed++
			delete(logs, k)
		case e.Action == "fail" && e.Test != "":
			failed++
			for _, l := range logs[k] {
				fmt.Fprint(out, l)
			}
			delete(logs, k)
		case e.Action == "fail":
			pkgFailed = true
		case e.Action == "skip" && e.Test != "":
			skipped++
			reasons[skipReason(logs[k])]++
			delete(logs, k)
		}
	}
	if len(reasons) > 0 {
		var rs []string
		for r := range reasons {
			rs = append(rs, r)
		}
		sort.Slice(rs, func(i, j int) bool {
			if reasons[rs[i]] != reasons[rs[j]] {
				return reasons[rs[i]] > reasons[rs[j]]
			}
			return rs[i] < rs[j]
		})
		parts := make([]string, len(rs))
		for i, r := range rs {
			parts[i] = fmt.Sprintf("%d: %s", reasons[r], r)
		}
		fmt.Fprintf(out, "skipped %d tests (%s)\n", skipped, strings.Join(parts, "; "))
	}
	fmt.Fprintf(out, "%d passed, %d failed, %d skipped\n", passed, failed, skipped)
	if failed > 0 || pkgFailed {
		return 1
	}
	return 0
}

// skipReason is the first line a skipped test logged that is not go
// test's own header, without its file:line, or "no reason given".
func skipReason(lines []string) string {
	for _, l := range lines {
		s := strings.TrimSpace(l)
		if s == "" || strings.HasPrefix(s, "=== ") || strings.HasPrefix(s, "--- SKIP") {
			continue
		}
		s = strings.TrimSpace(located.ReplaceAllString(s, ""))
		if len(s) > 120 {
			s = s[:117] + "..."
		}
		return s
	}
	return "no reason given"
}
