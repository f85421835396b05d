package spec

import (
	"encoding/base64"
	"mime"
	"net/url"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Icon is one entry of an `icons:` list: an image a client may show for a
// tool, as MCP's Icon defines it (protocol revision 2025-11-25,
// https://modelcontextprotocol.io/specification/2025-11-25/basic/index#icons),
// keys spelled as there. Only MCP carries icons (runtime.Tool.Icons); the
// other dialects leave them out.
type Icon struct {
	Pos Pos
	// Src is where the image is: an https: or http: URL, or a data: URI
	// of base64-encoded image data ("data:image/png;base64,…").
	Src string
	// MIMEType (`mimeType:`) is the image's type ("image/png"), for a
	// source whose own is missing or generic. Optional.
	MIMEType string
	// Sizes are the sizes the image is drawn for, each "WxH" ("48x48") or
	// "any" (a scalable format such as SVG). Optional: any size.
	Sizes []string
	// Theme is the background the image is drawn for: "light" or "dark".
	// Optional: either.
	Theme string
}

var iconKeys = []string{"src", "mimeType", "sizes", "theme"}

// iconThemes are the values of an icon's theme.
var iconThemes = []string{"light", "dark"}

// title reads a tool's `title:`: a display name for people, one line.
func (p *parser) title(v *yaml.Node, in string) string {
	s, ok := p.str(v, "title "+in)
	if !ok {
		return ""
	}
	switch {
	case strings.TrimSpace(s) == "":
		p.errorf(v, "title %s is empty; leave it out to show the tool's name", in)
	case strings.ContainsAny(s, "\r\n"):
		p.errorf(v, "title %s must be one line: it is a display name (the description is for the model)", in)
	}
	return s
}

// icons reads an `icons:` list. A module's must name at least one icon; a
// tool's may be empty, to show none of the module's.
func (p *parser) icons(v *yaml.Node, in string, module bool) []Icon {
	items, ok := p.sequence(v, "icons "+in)
	if !ok {
		return nil
	}
	if len(items) == 0 && module {
		p.errorf(v, "icons %s is empty; list at least one icon, or leave icons out", in)
		return nil
	}
	icons := make([]Icon, 0, len(items))
	for i, n := range items {
		what := "icon #" + strconv.Itoa(i+1) + " " + in
		m := p.mapping(n, what, "in "+what, iconKeys)
		if m == nil {
			continue
		}
		ic := Icon{Pos: p.pos(deref(n))}
		if sv := m.val("src"); sv == nil {
			p.errorf(n, "missing required key \"src\" in %s (an https: URL or a data: URI of the image)", what)
		} else if s, ok := p.str(sv, "src of "+what); ok {
			ic.Src = s
			p.iconSrc(sv, s, what)
		}
		if mv := m.val("mimeType"); mv != nil {
			if s, ok := p.str(mv, "mimeType of "+what); ok {
				ic.MIMEType = s
				if msg := imageType(s); msg != "" {
					p.errorf(mv, "mimeType %q of %s %s", s, what, msg)
				}
			}
		}
		if sv := m.val("sizes"); sv != nil {
			if list, ok := p.sequence(sv, "sizes of "+what); ok {
				for _, e := range list {
					s, ok := p.str(e, "a size of "+what)
					if !ok {
						continue
					}
					if !iconSize(s) {
						p.errorf(e, "size %q of %s must be WxH in pixels (\"48x48\") or \"any\"", s, what)
						continue
					}
					ic.Sizes = append(ic.Sizes, s)
				}
			}
		}
		if tv := m.val("theme"); tv != nil {
			if s, ok := p.str(tv, "theme of "+what); ok {
				if !contains(iconThemes, s) {
					p.errorf(tv, "theme %q of %s must be light or dark%s", s, what, didYouMean(s, iconThemes))
				} else {
					ic.Theme = s
				}
			}
		}
		icons = append(icons, ic)
	}
	return icons
}

// iconSrc checks an icon's src: MCP takes an HTTP(S) URL or a data: URI
// with base64-encoded image data; any other scheme (file:, javascript:, a
// relative path) is refused, as a client must not load it.
func (p *parser) iconSrc(n *yaml.Node, s, what string) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		p.errorf(n, "src %q of %s is not an absolute URL; an icon is an https: or http: URL or a data: URI", clip(s), what)
		return
	}
	switch strings.ToLower(u.Scheme) {
	case "https", "http":
		if u.Host == "" {
			p.errorf(n, "src %q of %s has no host", clip(s), what)
		}
	case "data":
		if msg := dataImage(s); msg != "" {
			p.errorf(n, "src of %s: %s", what, msg)
		}
	default:
		p.errorf(n, "src %q of %s has the scheme %q; an icon is an https: or http: URL or a data: URI", clip(s), what, u.Scheme+":")
	}
}

// dataImage checks a data: URI holds base64-encoded image data, and says
// what is wrong ("" when nothing is).
func dataImage(s string) string {
	head, data, ok := strings.Cut(s[len("data:"):], ",")
	if !ok {
		return "a data: URI needs a comma before its data (data:image/png;base64,…)"
	}
	typ, isBase64 := strings.CutSuffix(head, ";base64")
	if !isBase64 {
		return "a data: URI of an icon must be base64-encoded (data:image/png;base64,…)"
	}
	if msg := imageType(typ); msg != "" {
		return "the data: URI's type " + strconv.Quote(typ) + " " + msg
	}
	if _, err := base64.StdEncoding.DecodeString(data); err != nil {
		return "the data: URI's data is not base64: " + err.Error()
	}
	return ""
}

// imageType says what is wrong with s as an icon's MIME type ("" when
// nothing is): it must parse as a media type, and be an image.
func imageType(s string) string {
	mt, _, err := mime.ParseMediaType(s)
	if err != nil {
		return "is not a MIME type (" + err.Error() + "); write image/png, image/jpeg, image/svg+xml or image/webp"
	}
	if !strings.HasPrefix(mt, "image/") || mt == "image/" {
		return "is not an image type; write image/png, image/jpeg, image/svg+xml or image/webp"
	}
	return ""
}

// iconSize reports whether s is "any" or WxH, both positive integers.
func iconSize(s string) bool {
	if s == "any" {
		return true
	}
	w, h, ok := strings.Cut(s, "x")
	return ok && positive(w) && positive(h)
}

func positive(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n > 0 && s[0] != '+' && s[0] != '0'
}

// clip shortens s for a message (a data: URI may be long).
func clip(s string) string {
	if len(s) > 64 {
		return s[:61] + "..."
	}
	return s
}

// IconProblem says what the loader would refuse in ic ("" when nothing),
// for a tool that writes a spec (toolgen import mcp) and must leave out an
// icon the spec cannot hold.
func IconProblem(ic Icon) string {
	u, err := url.Parse(ic.Src)
	switch {
	case err != nil || u.Scheme == "":
		return "src is not an absolute URL"
	case strings.EqualFold(u.Scheme, "data"):
		if msg := dataImage(ic.Src); msg != "" {
			return msg
		}
	case strings.EqualFold(u.Scheme, "https") || strings.EqualFold(u.Scheme, "http"):
		if u.Host == "" {
			return "src has no host"
		}
	default:
		return "src has the scheme " + strconv.Quote(u.Scheme+":")
	}
	if ic.MIMEType != "" {
		if msg := imageType(ic.MIMEType); msg != "" {
			return "mimeType " + strconv.Quote(ic.MIMEType) + " " + msg
		}
	}
	for _, s := range ic.Sizes {
		if !iconSize(s) {
			return "size " + strconv.Quote(s) + " is not WxH or any"
		}
	}
	if ic.Theme != "" && !contains(iconThemes, ic.Theme) {
		return "theme " + strconv.Quote(ic.Theme) + " is not light or dark"
	}
	return ""
}
