package diff

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// DefaultFailOn are the categories whose breaking findings fail a check
// by default: the Go API and what the model sees.
var DefaultFailOn = []Category{GoAPI, Model}

// ParseFailOn reads a --fail-on value: categories separated by commas,
// "all", or "none".
func ParseFailOn(s string) ([]Category, error) {
	switch strings.TrimSpace(s) {
	case "all":
		return slices.Clone(Categories), nil
	case "none", "":
		return []Category{}, nil
	}
	var out []Category
	for _, part := range strings.Split(s, ",") {
		c := Category(strings.TrimSpace(part))
		if !slices.Contains(Categories, c) {
			names := make([]string, len(Categories))
			for i, c := range Categories {
				names[i] = string(c)
			}
			return nil, fmt.Errorf("unknown category %q: the categories are %s (or all, none)", c, strings.Join(names, ", "))
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// Failing counts the findings that fail on failOn.
func Failing(findings []Finding, failOn []Category) int {
	n := 0
	for _, f := range findings {
		if f.Fails(failOn) {
			n++
		}
	}
	return n
}

// WriteText writes one line per finding (Finding.String).
func WriteText(w io.Writer, findings []Finding) error {
	for _, f := range findings {
		if _, err := fmt.Fprintln(w, f.String()); err != nil {
			return err
		}
	}
	return nil
}

// jsonFinding is a finding as WriteJSON writes it.
type jsonFinding struct {
	Rule       string     `json:"rule"`
	Level      Level      `json:"level"`
	Categories []Category `json:"categories"`
	File       string     `json:"file"`
	Line       int        `json:"line"`
	Col        int        `json:"col"`
	// Old is set when the position is in the old spec (something removed);
	// Anchor is then the closest place in the new spec, if there is one.
	Old     bool     `json:"old,omitempty"`
	Anchor  *jsonPos `json:"anchor,omitempty"`
	Tool    string   `json:"tool,omitempty"`
	Message string   `json:"message"`
	Fails   bool     `json:"fails"`
}

type jsonPos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

// WriteJSON writes the findings as a JSON object: {"findings": [...],
// "failing": N}, each finding with its rule, level, categories, file,
// line, col, old (and anchor), tool, message and whether it fails on
// failOn.
func WriteJSON(w io.Writer, findings []Finding, failOn []Category) error {
	out := struct {
		Findings []jsonFinding `json:"findings"`
		Failing  int           `json:"failing"`
	}{Findings: []jsonFinding{}, Failing: Failing(findings, failOn)}
	for _, f := range findings {
		jf := jsonFinding{
			Rule: f.Rule.ID, Level: f.Rule.Level, Categories: f.Categories,
			File: f.Pos.File, Line: f.Pos.Line, Col: f.Pos.Col, Old: f.Old,
			Tool: f.Tool, Message: f.Message, Fails: f.Fails(failOn),
		}
		if f.Old && f.Anchor.File != "" {
			jf.Anchor = &jsonPos{f.Anchor.File, f.Anchor.Line, f.Anchor.Col}
		}
		out.Findings = append(out.Findings, jf)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// WriteGitHub writes GitHub Actions workflow commands that annotate the
// change in a pull request: ::error for a finding that fails on failOn,
// ::warning for the other breaking findings and the warnings, ::notice
// for compatible ones. A finding in the old spec is placed at its anchor
// in the new one (the tool or file that held what was removed), with the
// old line in the message; one whose file is gone is placed in the old
// file.
func WriteGitHub(w io.Writer, findings []Finding, failOn []Category) error {
	for _, f := range findings {
		cmd := "notice"
		switch {
		case f.Fails(failOn):
			cmd = "error"
		case f.Rule.Level != Compatible:
			cmd = "warning"
		}
		pos, msg := f.Pos, f.Message
		if f.Old {
			msg += fmt.Sprintf(" (was at line %d of the old spec)", f.Pos.Line)
			if f.Anchor.File != "" {
				pos = f.Anchor
			}
		}
		cats := make([]string, len(f.Categories))
		for i, c := range f.Categories {
			cats[i] = string(c)
		}
		title := fmt.Sprintf("%s (%s %s)", f.Rule.ID, f.Rule.Level, strings.Join(cats, ", "))
		_, err := fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,title=%s::%s\n",
			cmd, ghProperty(pos.File), pos.Line, pos.Col, ghProperty(title), ghData(msg))
		if err != nil {
			return err
		}
	}
	return nil
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
