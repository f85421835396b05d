// Command run measures toolgen at API scale (issue 9): for specs of 10, 100
// and 1,000 tools written by internal/scale it times `toolgen generate` and
// `go build` of the generated package, each with its peak RSS (from
// /usr/bin/time -v), counts the generated lines, and prints the best of
// three runs as a Markdown table. `make scale` runs it.
//
//	go run ./internal/scale/run [-tools 10,100,1000] [-runs 3] [-keep DIR]
//
// The packages are built in a throwaway module that requires this one
// through a replace directive, so the build compiles only the generated
// package (its dependencies come from the build cache); a file with a fresh
// comment before each build keeps the cache from answering for it.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/toolgen/toolgen/internal/scale"
)

func main() {
	toolsFlag := flag.String("tools", "10,100,1000", "comma-separated spec sizes, in tools")
	runs := flag.Int("runs", 3, "runs of each measurement; the best is reported")
	keep := flag.String("keep", "", "write the throwaway module to this directory and keep it (default: a temporary directory, removed)")
	flag.Parse()
	if err := run(*toolsFlag, *runs, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

type result struct {
	tools            int
	gen, build       time.Duration
	genCPU, buildCPU time.Duration // user + system
	genRSS, buildRSS int64         // KiB
	lines, bytes     int
	stubLines        int
}

func run(toolsFlag string, runs int, keep string) error {
	var sizes []int
	for _, s := range strings.Split(toolsFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return fmt.Errorf("-tools: %q is not a positive number", s)
		}
		sizes = append(sizes, n)
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		return errors.New("/usr/bin/time (GNU time) is needed for peak RSS: apt-get install time")
	}
	root, err := output("", "go", "list", "-m", "-f", "{{.Dir}}")
	if err != nil {
		return err
	}
	root = strings.TrimSpace(root)

	work := keep
	if work == "" {
		if work, err = os.MkdirTemp("", "toolgen-scale-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return err
	}
	work, _ = filepath.Abs(work)
	toolgen := filepath.Join(work, "toolgen")
	if _, err := output(root, "go", "build", "-o", toolgen, "./cmd/toolgen"); err != nil {
		return err
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return err
	}
	gomod := fmt.Sprintf("module scaletest\n\ngo 1.26.0\n\nrequire github.com/toolgen/toolgen v0.0.0\n\nreplace github.com/toolgen/toolgen => %s\n", root)
	if err := os.WriteFile(filepath.Join(work, "go.mod"), []byte(gomod), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(work, "go.sum"), gosum, 0o644); err != nil {
		return err
	}
	// Warm the build cache for the runtime, so builds compile only the
	// generated package.
	if _, err := output(root, "go", "build", "./runtime/..."); err != nil {
		return err
	}

	var results []result
	for _, n := range sizes {
		r, err := measure(work, toolgen, n, runs)
		if err != nil {
			return fmt.Errorf("%d tools: %w", n, err)
		}
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "%d tools done\n", n)
	}
	fmt.Printf("best of %d runs\n\n", runs)
	fmt.Println("| tools | generate (CPU) | generate peak RSS | generated lines | lines per tool | `go build` of the package (CPU) | build peak RSS |")
	fmt.Println("| --- | --- | --- | --- | --- | --- | --- |")
	for _, r := range results {
		fmt.Printf("| %s | %.3f s (%.2f s) | %s | %s (%.1f MB) | %d | %.2f s (%.1f s) | %s |\n",
			comma(r.tools), r.gen.Seconds(), r.genCPU.Seconds(), mib(r.genRSS), comma(r.lines), float64(r.bytes)/1e6,
			r.lines/r.tools, r.build.Seconds(), r.buildCPU.Seconds(), mib(r.buildRSS))
	}
	return nil
}

// measure generates and builds a package of n tools, runs times each, and
// keeps the best time and the lowest peak RSS.
func measure(work, toolgen string, n, runs int) (result, error) {
	r := result{tools: n}
	rel := fmt.Sprintf("n%d/big", n)
	dir := filepath.Join(work, rel)
	if err := os.RemoveAll(dir); err != nil {
		return r, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return r, err
	}
	if err := os.WriteFile(filepath.Join(dir, "big.tools.yaml"), scale.Spec(n), 0o644); err != nil {
		return r, err
	}
	for i := range runs {
		// Each run generates from scratch: no stubs file to read.
		for _, name := range []string{"big_tools.gen.go", "big_tools.go", "big_tools.md"} {
			os.Remove(filepath.Join(dir, name))
		}
		d, cpu, rss, err := timed(dir, toolgen, "generate", ".")
		if err != nil {
			return r, err
		}
		if i == 0 || d < r.gen {
			r.gen = d
		}
		if i == 0 || cpu < r.genCPU {
			r.genCPU = cpu
		}
		if i == 0 || rss < r.genRSS {
			r.genRSS = rss
		}
	}
	code, err := os.ReadFile(filepath.Join(dir, "big_tools.gen.go"))
	if err != nil {
		return r, err
	}
	r.lines, r.bytes = bytes.Count(code, []byte("\n")), len(code)
	for i := range runs {
		stamp := fmt.Sprintf("package big\n\n// run %d at %d\n", i, time.Now().UnixNano())
		if err := os.WriteFile(filepath.Join(dir, "stamp.go"), []byte(stamp), 0o644); err != nil {
			return r, err
		}
		d, cpu, rss, err := timed(work, "go", "build", "./"+rel)
		if err != nil {
			return r, err
		}
		if i == 0 || d < r.build {
			r.build = d
		}
		if i == 0 || cpu < r.buildCPU {
			r.buildCPU = cpu
		}
		if i == 0 || rss < r.buildRSS {
			r.buildRSS = rss
		}
	}
	return r, nil
}

var (
	maxRSS  = regexp.MustCompile(`Maximum resident set size \(kbytes\): (\d+)`)
	userCPU = regexp.MustCompile(`User time \(seconds\): ([0-9.]+)`)
	sysCPU  = regexp.MustCompile(`System time \(seconds\): ([0-9.]+)`)
)

// timed runs name with args in dir under /usr/bin/time -v and returns the
// wall time, the CPU time (user and system, of every process it ran) and
// the peak RSS in KiB of the largest process it ran.
func timed(dir, name string, args ...string) (wall, cpu time.Duration, rssKiB int64, err error) {
	cmd := exec.Command("/usr/bin/time", append([]string{"-v", name}, args...)...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err = cmd.Run()
	wall = time.Since(start)
	out := stderr.String()
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(out))
	}
	m, u, s := maxRSS.FindStringSubmatch(out), userCPU.FindStringSubmatch(out), sysCPU.FindStringSubmatch(out)
	if m == nil || u == nil || s == nil {
		return 0, 0, 0, fmt.Errorf("no peak RSS or CPU time in the output of /usr/bin/time:\n%s", tail(out))
	}
	rssKiB, _ = strconv.ParseInt(m[1], 10, 64)
	us, _ := strconv.ParseFloat(u[1], 64)
	ss, _ := strconv.ParseFloat(s[1], 64)
	return wall, time.Duration((us + ss) * float64(time.Second)), rssKiB, nil
}

func output(dir, name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(stderr.String()))
	}
	return string(out), nil
}

func tail(s string) string {
	if len(s) > 4000 {
		return "…" + s[len(s)-4000:]
	}
	return s
}

func mib(kb int64) string {
	if kb >= 1<<20 {
		return fmt.Sprintf("%.2f GiB", float64(kb)/(1<<20))
	}
	return fmt.Sprintf("%d MiB", kb>>10)
}

func comma(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
