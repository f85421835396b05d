package spec

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"gopkg.in/yaml.v3"
)

// Parsing a large spec file's YAML in parallel. yaml.v3 reads a document
// on one goroutine, and for a spec of a thousand tools that is most of
// the loading. The tools of a spec are a block list at the end of the
// file, one item after the other; parseChunks cuts the file between items
// into chunks, parses them at once and joins their items into one node
// tree: the tree yaml.v3 makes of the whole file, which is then read as
// always.
//
// A chunk is the file's text with every line outside it left empty, so
// that yaml.v3 gives each node the line and column it has in the file: the
// first chunk is the text up to the first cut (the module's keys, `tools:`
// and its first items); each other one holds items only, which yaml.v3
// reads as a list of its own. Every line from the first item to the end of
// the file must be empty, a comment, a line indented past the items' "-"
// or an item's own "- " line, and a cut is made before an item's line.
// There, reading the whole file, yaml.v3 is outside every block scalar and
// plain scalar (a line indented no more than the list's "-" ends them) and
// goes on to the list's next item; an item is read alike in both, since
// nothing in it reaches the levels left of its "-", which are all the two
// differ in. A quoted string, a bracket or a key left open at a cut is a
// syntax error in the chunk before it, and an alias of an anchor set in
// another chunk is one in the chunk that holds it: any error in a chunk,
// and any tree not shaped as it must be, has the whole file parsed at once
// instead, so that every error is yaml.v3's own answer for the whole file.
// Files that use what the line rules cannot judge (tabs in an indentation,
// line breaks other than "\n" and "\r\n", UTF-16) are parsed whole too, and
// so are files that nest very deeply (maxCutDepth). The joined tree is the
// whole file's but for comments, which yaml.v3 attaches to nodes by what
// is around them (a comment before a cut is the foot of an item, not the
// head of the next) and the loader does not read: its scanner skips them
// alike.

// chunkFrom is the file size from which parseChunks cuts it: smaller
// files are parsed faster than goroutines start.
const chunkFrom = 64 << 10

// maxChunks bounds the chunks a file is cut into.
const maxChunks = 8

// maxCutDepth is how deeply the nodes of a chunk may nest. A chunk of
// items nests one level less than the file (it has no module mapping
// around the list), and yaml.v3 refuses a file whose block lists and
// mappings nest more than 10,000 levels: a chunk that nests nearly as
// deeply has the file parsed whole, to answer as it answers.
const maxCutDepth = 9000

// parseChunks parses data, a whole spec file, in chunks on up to
// GOMAXPROCS goroutines, giving the node tree yaml.v3 makes of it (one
// document, no syntax error). It gives false when it did not: data is
// small or cannot be cut, or not every chunk was read as it must be.
func parseChunks(data []byte) (*yaml.Node, bool) {
	procs := runtime.GOMAXPROCS(0)
	if procs < 2 || len(data) < chunkFrom {
		return nil, false
	}
	// Two chunks for each goroutine, so that one that waits for a
	// processor (on a busy machine) leaves the others more to do.
	return parseCut(data, min(2*procs, maxChunks), procs)
}

// chunk is a part of the file to parse: the lines from line (from 0),
// which starts at offset off, to end.
type chunk struct {
	off, end, line int
	// items is the number of tools' items that start in it.
	items int
}

// parseCut is parseChunks cutting data into at most n chunks, parsed on
// up to procs goroutines.
func parseCut(data []byte, n, procs int) (*yaml.Node, bool) {
	chunks, toolsLine, indent, ok := cutChunks(data, n)
	if !ok {
		return nil, false
	}
	docs := make([]*yaml.Node, len(chunks))
	newlines := bytes.Repeat([]byte{'\n'}, chunks[len(chunks)-1].line)
	var next atomic.Int64
	read := func() {
		for {
			i := int(next.Add(1)) - 1
			if i >= len(chunks) {
				return
			}
			c := chunks[i]
			docs[i] = parseOne(io.MultiReader(bytes.NewReader(newlines[:c.line]), bytes.NewReader(data[c.off:c.end])))
		}
	}
	var wg sync.WaitGroup
	for range min(procs, len(chunks)) - 1 {
		wg.Go(read)
	}
	read()
	wg.Wait()
	return joinChunks(docs, chunks, toolsLine, indent)
}

// parseOne parses the one document r holds, or gives nil.
func parseOne(r io.Reader) (doc *yaml.Node) {
	defer func() {
		if recover() != nil {
			doc = nil // the whole file is parsed again, and answers
		}
	}()
	dec := yaml.NewDecoder(r)
	var d yaml.Node
	if err := dec.Decode(&d); err != nil {
		return nil
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil
	}
	if nestsPast(&d, maxCutDepth) {
		return nil
	}
	return &d
}

// nestsPast reports whether the nodes under n nest more than depth levels
// deep (aliases are not followed).
func nestsPast(n *yaml.Node, depth int) bool {
	if depth < 0 {
		return true
	}
	for _, c := range n.Content {
		if len(c.Content) > 0 && nestsPast(c, depth-1) {
			return true
		}
	}
	return false
}

// cutChunks finds where to cut data into at most n chunks of about the
// same size, by the rules above: the chunks, the line (from 0) of
// `tools:` and the indentation of the items' "-".
func cutChunks(data []byte, n int) (chunks []chunk, toolsLine, indent int, ok bool) {
	if bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) {
		return nil, 0, 0, false // UTF-16
	}
	for i := bytes.IndexByte(data, '\r'); i >= 0; {
		if i+1 == len(data) || data[i+1] != '\n' {
			return nil, 0, 0, false // a line break of its own
		}
		j := bytes.IndexByte(data[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	// NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR break lines for yaml.v3.
	for _, lb := range []string{"\u0085", "\u2028", "\u2029"} {
		if bytes.Contains(data, []byte(lb)) {
			return nil, 0, 0, false
		}
	}
	type item struct{ off, line int }
	var items []item
	toolsLine, indent = -1, -1
	line := 0
	for off := 0; off < len(data); line++ {
		end := len(data)
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			end = off + i
		}
		text := bytes.TrimSuffix(data[off:end], []byte{'\r'})
		lineOff := off
		off = end + 1
		if toolsLine < 0 {
			if isToolsKey(text) {
				toolsLine = line
			}
			continue
		}
		spaces := 0
		for spaces < len(text) && text[spaces] == ' ' {
			spaces++
		}
		rest := text[spaces:]
		switch {
		case len(rest) == 0:
			continue
		case rest[0] == '\t':
			return nil, 0, 0, false
		case rest[0] == '#':
			continue
		}
		dash := rest[0] == '-' && (len(rest) == 1 || rest[1] == ' ')
		if indent < 0 {
			if !dash || spaces == 0 {
				return nil, 0, 0, false
			}
			indent = spaces
		}
		switch {
		case spaces < indent:
			return nil, 0, 0, false // the list ends before the file does
		case spaces == indent:
			if !dash {
				return nil, 0, 0, false
			}
			items = append(items, item{off: lineOff, line: line})
		}
	}
	if len(items) < 2 {
		return nil, 0, 0, false
	}
	// Cut before the first item that may be cut at past each n-th of the
	// file.
	chunks = []chunk{{off: 0}}
	next := 1
	for _, it := range items[1:] {
		if next == n {
			break
		}
		if it.off >= next*len(data)/n {
			chunks[len(chunks)-1].end = it.off
			chunks = append(chunks, chunk{off: it.off, line: it.line})
			for next*len(data)/n <= it.off {
				next++
			}
		}
	}
	if len(chunks) < 2 {
		return nil, 0, 0, false
	}
	chunks[len(chunks)-1].end = len(data)
	c := 0
	for _, it := range items {
		for it.off >= chunks[c].end {
			c++
		}
		chunks[c].items++
	}
	return chunks, toolsLine, indent, true
}

// isToolsKey reports whether a line is the module's `tools:` key with its
// value on the lines below: "tools:", maybe with a comment.
func isToolsKey(text []byte) bool {
	rest, ok := bytes.CutPrefix(text, []byte("tools:"))
	if !ok {
		return false
	}
	if len(rest) == 0 {
		return true
	}
	if rest[0] != ' ' {
		return false
	}
	rest = bytes.TrimLeft(rest, " ")
	return len(rest) == 0 || rest[0] == '#'
}

// joinChunks checks that the chunks' trees are shaped as the file's
// chunks must be, and joins them: the first one's tools list takes the
// items of the others.
func joinChunks(docs []*yaml.Node, chunks []chunk, toolsLine, indent int) (*yaml.Node, bool) {
	for _, d := range docs {
		if d == nil || d.Kind != yaml.DocumentNode || len(d.Content) != 1 {
			return nil, false
		}
	}
	root := docs[0].Content[0]
	if root.Kind != yaml.MappingNode || len(root.Content) < 2 || len(root.Content)%2 != 0 {
		return nil, false
	}
	key, tools := root.Content[len(root.Content)-2], root.Content[len(root.Content)-1]
	if key.Kind != yaml.ScalarNode || key.Value != "tools" || key.Tag != "!!str" || key.Style != 0 || key.Anchor != "" ||
		key.Line != toolsLine+1 || key.Column != 1 || !blockList(tools, chunks[0].items) {
		return nil, false
	}
	items := tools.Content
	for i, d := range docs[1:] {
		list := d.Content[0]
		if !blockList(list, chunks[i+1].items) || list.Line != chunks[i+1].line+1 || list.Column != indent+1 {
			return nil, false
		}
		items = append(items, list.Content...)
	}
	tools.Content = items
	return docs[0], true
}

// blockList reports whether n is a plain block list of items items.
func blockList(n *yaml.Node, items int) bool {
	return n.Kind == yaml.SequenceNode && n.Style == 0 && n.Tag == "!!seq" && n.Anchor == "" && len(n.Content) == items
}
