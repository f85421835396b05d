package spec

import (
	"strings"
	"unicode/utf8"
)

// yaml.v3 reports a syntax error as "line N: message" with no column, and
// the line is not always the one to look at: a parser error (an unclosed
// "[", a misplaced key) prints the 0-based line of the construct it was
// reading, so it reads one line early, and the depth error of a deeply
// nested file has no line at all. locateSyntax finds the line and column
// from the source for the errors where that can be done reliably, and
// says what to look for. It reads the file once at most.

// parserErrors are yaml.v3's parser (not scanner) messages: their line is
// 0-based.
var parserErrors = []string{
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected key",
	"did not find expected '-' indicator",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
}

// maxFlowDepth is yaml.v3's limit on nested "[" and "{".
const maxFlowDepth = 10000

// locateSyntax returns the position of the yaml.v3 syntax error msg that
// was reported on line (0: no line), and the message to print. lines are
// the file's lines.
func locateSyntax(lines []string, line int, msg string) (int, int, string) {
	parser := false
	for _, m := range parserErrors {
		if msg == m {
			parser = true
		}
	}
	if parser && line > 0 {
		line++
	}
	if line == 0 {
		line = 1
	}
	switch {
	case msg == "did not find expected ',' or ']'" || msg == "did not find expected ',' or '}'":
		open, what := byte('['), "list"
		if strings.HasSuffix(msg, "'}'") {
			open, what = '{', "mapping"
		}
		// The line is that of the unclosed bracket; when it was the
		// file's first line yaml.v3 gives the line of the problem instead.
		for _, l := range []int{line, 1} {
			if l <= len(lines) {
				if col := unclosedOn(lines[l-1], open); col > 0 {
					return l, col, msg + " in the " + what + " that starts here (is its \"" + string(closer(open)) + "\" missing?)"
				}
			}
		}
	case strings.HasPrefix(msg, "exceeded max depth of "):
		if l, col := tooDeep(lines); l > 0 {
			return l, col, msg + ": \"[\" and \"{\" nest more than that here"
		}
		// Block nesting: indentation levels. yaml.v3 names the line; on
		// it, the "- " past the limit, or the line's first token.
		if line <= len(lines) {
			return line, deepIndent(lines[line-1]), msg + ": lists and mappings nest more than that here"
		}
		return line, 0, msg + " (lists and mappings nest too deeply)"
	case msg == "found unexpected end of stream":
		if line <= len(lines) {
			if col := unterminatedQuote(lines, line); col > 0 {
				return line, col, "the quoted string that starts here is not closed (found unexpected end of stream)"
			}
		}
	case msg == "mapping values are not allowed in this context":
		if line <= len(lines) {
			if col := strayColon(lines[line-1]); col > 0 {
				return line, col, msg + " (a value cannot itself hold \"key: value\" on one line: quote it, or start a nested mapping on the next line)"
			}
		}
	case parser:
		if line <= len(lines) {
			text := lines[line-1]
			if trimmed := strings.TrimLeft(text, " "); trimmed != "" {
				return line, 1 + utf8.RuneCountInString(text[:len(text)-len(trimmed)]), msg
			}
		}
	}
	return line, 0, msg
}

func closer(open byte) byte {
	if open == '[' {
		return ']'
	}
	return '}'
}

// quoteEnd returns the index after the quoted string that starts at
// text[i], or -1 when it does not end on this line.
func quoteEnd(text string, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch {
		case q == '"' && text[j] == '\\':
			j++
		case text[j] == q:
			if q == '\'' && j+1 < len(text) && text[j+1] == '\'' {
				j++
				continue
			}
			return j + 1
		}
	}
	return -1
}

// startsNode reports whether a quote or bracket at text[i] starts a node:
// it follows the line's indentation or an indicator (": ", "- ", "[", "{",
// ",", "? "), not the middle of a plain scalar.
func startsNode(text string, i int) bool {
	j := i - 1
	for j >= 0 && (text[j] == ' ' || text[j] == '\t') {
		j--
	}
	if j < 0 {
		return true
	}
	switch text[j] {
	case '[', '{', ',':
		return true
	case ':', '-', '?':
		return j < i-1 // followed by white space
	}
	return false
}

// unclosedOn returns the 1-based column of the last opening bracket open
// on text that the line does not close, or 0.
func unclosedOn(text string, open byte) int {
	var stack []int
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case (c == '"' || c == '\'') && startsNode(text, i):
			end := quoteEnd(text, i)
			if end < 0 {
				i = len(text)
				continue
			}
			i = end - 1
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t'):
			i = len(text)
		case (c == '[' || c == '{') && (len(stack) > 0 || startsNode(text, i)):
			stack = append(stack, i)
		case (c == ']' || c == '}') && len(stack) > 0:
			stack = stack[:len(stack)-1]
		}
	}
	for k := len(stack) - 1; k >= 0; k-- {
		if text[stack[k]] == open {
			return 1 + utf8.RuneCountInString(text[:stack[k]])
		}
	}
	return 0
}

// tooDeep finds the bracket at which "[" and "{" nest more than
// maxFlowDepth deep, reading the file once; 0, 0 if they never do.
func tooDeep(lines []string) (int, int) {
	depth := 0
	for l, text := range lines {
		for i := 0; i < len(text); i++ {
			c := text[i]
			switch {
			case (c == '"' || c == '\'') && (depth > 0 || startsNode(text, i)):
				if end := quoteEnd(text, i); end > 0 {
					i = end - 1
				} else {
					i = len(text)
				}
			case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t'):
				i = len(text)
			case (c == '[' || c == '{') && (depth > 0 || startsNode(text, i)):
				depth++
				if depth > maxFlowDepth {
					return l + 1, 1 + utf8.RuneCountInString(text[:i])
				}
			case (c == ']' || c == '}') && depth > 0:
				depth--
			}
		}
	}
	return 0, 0
}

// unterminatedQuote returns the 1-based column of the quote on lines[line-1]
// that starts a string no later text closes, or 0.
func unterminatedQuote(lines []string, line int) int {
	text := lines[line-1]
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '#' && (i == 0 || text[i-1] == ' ') {
			return 0
		}
		if (c != '"' && c != '\'') || !startsNode(text, i) {
			continue
		}
		if end := quoteEnd(text, i); end > 0 {
			i = end - 1
			continue
		}
		// Not closed on its line: a quoted string may go on over
		// several lines; is it closed on a later one?
		rest := strings.Join(lines[line:], "\n")
		if !closesLater(rest, c) {
			return 1 + utf8.RuneCountInString(text[:i])
		}
		return 0
	}
	return 0
}

// closesLater reports whether text holds the end of a string quoted with q.
func closesLater(text string, q byte) bool {
	for j := 0; j < len(text); j++ {
		switch {
		case q == '"' && text[j] == '\\':
			j++
		case text[j] == q:
			if q == '\'' && j+1 < len(text) && text[j+1] == '\'' {
				j++
				continue
			}
			return true
		}
	}
	return false
}

// strayColon returns the 1-based column of the ": " on text that yaml.v3
// refuses: the second key separator of "a: b: c", or the only one of a
// line that is indented under a plain value.
func strayColon(text string) int {
	var cols []int
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case (c == '"' || c == '\'') && startsNode(text, i):
			if end := quoteEnd(text, i); end > 0 {
				i = end - 1
			} else {
				i = len(text)
			}
		case c == '#' && (i == 0 || text[i-1] == ' '):
			i = len(text)
		case c == ':' && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t'):
			cols = append(cols, 1+utf8.RuneCountInString(text[:i]))
		}
	}
	switch len(cols) {
	case 0:
		return 0
	case 1:
		return cols[0]
	}
	return cols[1]
}

// deepIndent returns the 1-based column on text where block nesting goes
// past maxFlowDepth levels when the line alone opens that many ("- - - …"),
// else the column of the line's first token (the key nested too deeply).
func deepIndent(text string) int {
	first := 0
	n := 0
	for i := 0; i < len(text); i++ {
		switch {
		case text[i] == ' ':
			continue
		case text[i] == '-' && (i+1 == len(text) || text[i+1] == ' '):
			if first == 0 {
				first = i + 1
			}
			n++
			if n > maxFlowDepth {
				return 1 + utf8.RuneCountInString(text[:i])
			}
			continue
		}
		if first == 0 {
			first = 1 + utf8.RuneCountInString(text[:i])
		}
		break
	}
	if first == 0 {
		first = 1
	}
	return first
}
