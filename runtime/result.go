package runtime

import (
	"encoding/json"
	"strings"
)

// PartType is the type of a result part.
type PartType string

// The part types.
const (
	PartText PartType = "text" // Part.Text holds the text
	PartFile PartType = "file" // Part.File holds the file
)

// Part is one part of a multi-part result: text or a file.
type Part struct {
	Type PartType `json:"type"`
	Text string   `json:"text,omitempty"`
	File *File    `json:"file,omitempty"`
}

// File is a file returned by a tool: inline data or a URL.
type File struct {
	Name      string `json:"name,omitempty"`
	MediaType string `json:"mediaType,omitempty"`
	Data      []byte `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

// Result is what a tool returns to the model: one or more parts. IsError
// marks a tool-error result (the model reads it and may correct itself).
type Result struct {
	// Parts are the result's content, in order; String joins their text.
	Parts []Part
	// IsError marks a tool-error result. An executor may set it to report
	// a failure itself (the same as returning an ordinary error).
	IsError bool
}

// Text returns a result with one text part.
func Text(s string) Result { return Result{Parts: []Part{{Type: PartText, Text: s}}} }

// JSON returns a result with v encoded as compact JSON text.
func JSON(v any) (Result, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Result{}, err
	}
	return Text(string(b)), nil
}

// FileResult returns a result with one file part.
func FileResult(f File) Result { return Result{Parts: []Part{{Type: PartFile, File: &f}}} }

// Parts returns a result made of the given parts.
func Parts(parts ...Part) Result { return Result{Parts: parts} }

// TextPart returns a text part, for Parts.
func TextPart(s string) Part { return Part{Type: PartText, Text: s} }

// FilePart returns a file part, for Parts.
func FilePart(f File) Part { return Part{Type: PartFile, File: &f} }

// String returns the text of the result's text parts, joined by newlines;
// file parts are shown as "[file name]".
func (r Result) String() string {
	if len(r.Parts) == 1 && r.Parts[0].Type == PartText {
		return r.Parts[0].Text
	}
	var b strings.Builder
	for i, p := range r.Parts {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch p.Type {
		case PartText:
			b.WriteString(p.Text)
		case PartFile:
			b.WriteString("[file ")
			if p.File != nil {
				b.WriteString(p.File.Name)
			}
			b.WriteString("]")
		}
	}
	return b.String()
}
