package mcp

import (
	"encoding/json"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen/toolgen/runtime"
)

// content maps a result's parts to MCP content: text to text; a file with
// data to image or audio content when its media type says so, else to an
// embedded resource (a blob); a file with only a URL to a resource link.
func content(r runtime.Result) []sdk.Content {
	out := make([]sdk.Content, 0, len(r.Parts))
	for _, p := range r.Parts {
		switch {
		case p.Type == runtime.PartFile && p.File != nil:
			out = append(out, fileContent(p.File))
		default:
			out = append(out, &sdk.TextContent{Text: p.Text})
		}
	}
	return out
}

func fileContent(f *runtime.File) sdk.Content {
	if len(f.Data) == 0 && f.URL != "" {
		name := f.Name
		if name == "" {
			name = f.URL
		}
		return &sdk.ResourceLink{URI: f.URL, Name: name, MIMEType: f.MediaType}
	}
	switch {
	case strings.HasPrefix(f.MediaType, "image/"):
		return &sdk.ImageContent{Data: f.Data, MIMEType: f.MediaType}
	case strings.HasPrefix(f.MediaType, "audio/"):
		return &sdk.AudioContent{Data: f.Data, MIMEType: f.MediaType}
	}
	uri := f.URL
	if uri == "" {
		uri = "file:///" + f.Name
	}
	return &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: uri, MIMEType: f.MediaType, Blob: f.Data}}
}

// result maps a tools/call result to a runtime.Result: text to text parts,
// images and audio to file parts, an embedded resource to a text part (text)
// or a file part (blob), a resource link to a file part with its URL. A
// result with no content but structuredContent gets it as JSON text.
func result(res *sdk.CallToolResult) runtime.Result {
	var r runtime.Result
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			r.Parts = append(r.Parts, runtime.TextPart(c.Text))
		case *sdk.ImageContent:
			r.Parts = append(r.Parts, runtime.FilePart(runtime.File{MediaType: c.MIMEType, Data: c.Data}))
		case *sdk.AudioContent:
			r.Parts = append(r.Parts, runtime.FilePart(runtime.File{MediaType: c.MIMEType, Data: c.Data}))
		case *sdk.EmbeddedResource:
			if c.Resource == nil {
				continue
			}
			if c.Resource.Blob == nil {
				r.Parts = append(r.Parts, runtime.TextPart(c.Resource.Text))
				continue
			}
			r.Parts = append(r.Parts, runtime.FilePart(runtime.File{Name: fileName(c.Resource.URI),
				MediaType: c.Resource.MIMEType, Data: c.Resource.Blob}))
		case *sdk.ResourceLink:
			r.Parts = append(r.Parts, runtime.FilePart(runtime.File{Name: c.Name, MediaType: c.MIMEType, URL: c.URI}))
		default:
			if b, err := json.Marshal(c); err == nil {
				r.Parts = append(r.Parts, runtime.TextPart(string(b)))
			}
		}
	}
	if len(r.Parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			r.Parts = append(r.Parts, runtime.TextPart(string(b)))
		}
	}
	r.IsError = res.IsError
	return r
}

// fileName is the name a file:/// URI stands for, or the URI.
func fileName(uri string) string {
	if name, ok := strings.CutPrefix(uri, "file:///"); ok {
		return name
	}
	return uri
}
