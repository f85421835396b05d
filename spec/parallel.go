package spec

import (
	"runtime"
	"sync"
	"sync/atomic"

	"gopkg.in/yaml.v3"
)

// Reading the tools of a large spec in parallel. Each tool is read on its
// own (its names, schemas, labels and examples); what it leaves for the
// whole file (references, defaults, checks that need resolved types,
// errors) is queued on the parser. tools reads groups of consecutive tools
// on parsers of their own, each a worker's, then appends what each group
// queued to p in tool order: p ends as reading the tools one after the
// other leaves it, errors included (ErrorList.Sort keeps the order of
// errors at one place). The checks queued for later are given the parser
// that runs them, so that what they report lands on p.

// parallelFrom is the number of tools from which tools reads them in
// parallel: fewer are read faster than goroutines start.
const parallelFrom = 64

// toolsPerGroup is about how many tools a group holds: enough to make
// handing a group out cheap, few enough to spread the work evenly.
const toolsPerGroup = 16

// tools reads the tool nodes of the module f, in order.
func (p *parser) tools(items []*yaml.Node, f *File) []*Tool {
	workers := min(runtime.GOMAXPROCS(0), len(items)/toolsPerGroup)
	if len(items) < parallelFrom || workers < 2 {
		return p.toolsFrom(items, 0, f)
	}
	type group struct {
		from, to int
		q        *parser
		tools    []*Tool
		panicked any // what reading it panicked with, raised again here
	}
	n := (len(items) + toolsPerGroup - 1) / toolsPerGroup
	groups := make([]group, n)
	for i := range groups {
		groups[i].from = i * len(items) / n
		groups[i].to = (i + 1) * len(items) / n
	}
	base := p.aliases
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(groups) {
					return
				}
				g := &groups[i]
				g.q = p.fork()
				func() {
					defer func() { g.panicked = recover() }()
					g.tools = g.q.toolsFrom(items[g.from:g.to], g.from, f)
				}()
			}
		})
	}
	wg.Wait()
	for i := range groups {
		if groups[i].panicked != nil {
			panic(groups[i].panicked)
		}
	}
	// Alias expansions are counted over the file (maxAliases): within the
	// limit, no group met it, as reading the tools in turn would not have.
	aliases := base
	for i := range groups {
		aliases += groups[i].q.aliases - base
	}
	if aliases > maxAliases {
		return p.toolsFrom(items, 0, f) // in turn, to stop where that stops
	}
	var out []*Tool
	for i := range groups {
		p.join(groups[i].q, base)
		out = append(out, groups[i].tools...)
	}
	return out
}

// toolsFrom reads items, the tools from number from on (from 0).
func (p *parser) toolsFrom(items []*yaml.Node, from int, f *File) []*Tool {
	var out []*Tool
	for i, n := range items {
		if t := p.tool(n, from+i, f); t != nil {
			out = append(out, t)
		}
	}
	return out
}

// fork is a parser for reading part of the file on another goroutine: it
// shares what p has read of the module (the source lines, the module's
// initialisms, the alias expansions so far) and queues what it finds on
// its own, for join.
func (p *parser) fork() *parser {
	return &parser{file: p.file, lines: p.lines, extra: p.extra, aliases: p.aliases}
}

// join appends to p what q, a fork of p made when p had counted base
// alias expansions, queued and counted.
func (p *parser) join(q *parser, base int) {
	p.errs = append(p.errs, q.errs...)
	p.refs = append(p.refs, q.refs...)
	p.defaults = append(p.defaults, q.defaults...)
	p.itemTypes = append(p.itemTypes, q.itemTypes...)
	p.later = append(p.later, q.later...)
	p.allOfs = append(p.allOfs, q.allOfs...)
	p.aliases += q.aliases - base
}
