package httpapi

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// pair is one name=value of a query string or form body, in the order
// they are sent.
type pair struct{ name, value string }

type pairs []pair

func (ps pairs) encode() string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(url.QueryEscape(p.name))
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(p.value))
	}
	return b.String()
}

// scalar formats a JSON scalar (as decoded with UseNumber) for a URL or
// header; ok is false for null, arrays and objects.
func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case json.Number:
		return x.String(), true
	case bool:
		return strconv.FormatBool(x), true
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true
	}
	return "", false
}

// sortedKeys returns m's keys in order, so that a request is the same
// for the same arguments.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendValue adds the pairs of one argument sent in a query string or a
// form body, by OpenAPI's style and explode rules.
func appendValue(ps pairs, a *Arg, v any) (pairs, error) {
	if v == nil {
		return ps, nil
	}
	switch a.Style {
	case DeepObject:
		return appendDeep(ps, a.Name, v), nil
	case SpaceDelimited, PipeDelimited:
		sep := " "
		if a.Style == PipeDelimited {
			sep = "|"
		}
		arr, ok := v.([]any)
		if !ok {
			break
		}
		parts := make([]string, 0, len(arr))
		for _, x := range arr {
			s, ok := scalar(x)
			if !ok {
				return ps, fmt.Errorf("argument %q: a %s array holds scalars only", a.Param, styleName(a.Style))
			}
			parts = append(parts, s)
		}
		return append(ps, pair{a.Name, strings.Join(parts, sep)}), nil
	}
	// form
	switch x := v.(type) {
	case []any:
		if a.Explode {
			for _, e := range x {
				if s, ok := scalar(e); ok {
					ps = append(ps, pair{a.Name, s})
				} else {
					ps = appendDeep(ps, a.Name+"[]", e)
				}
			}
			return ps, nil
		}
		parts := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := scalar(e)
			if !ok {
				return ps, fmt.Errorf("argument %q: an unexploded form array holds scalars only", a.Param)
			}
			parts = append(parts, s)
		}
		return append(ps, pair{a.Name, strings.Join(parts, ",")}), nil
	case map[string]any:
		if a.Explode {
			for _, k := range sortedKeys(x) {
				if s, ok := scalar(x[k]); ok {
					ps = append(ps, pair{k, s})
				} else {
					ps = appendDeep(ps, k, x[k])
				}
			}
			return ps, nil
		}
		var parts []string
		for _, k := range sortedKeys(x) {
			s, ok := scalar(x[k])
			if !ok {
				if x[k] == nil {
					continue
				}
				return ps, fmt.Errorf("argument %q: an unexploded form object holds scalars only", a.Param)
			}
			parts = append(parts, k, s)
		}
		return append(ps, pair{a.Name, strings.Join(parts, ",")}), nil
	}
	s, _ := scalar(v)
	return append(ps, pair{a.Name, s}), nil
}

// appendDeep adds v under prefix in deepObject style, nested the way
// Stripe and Rack read it: objects as prefix[key], arrays as prefix[0].
// An empty object or array sends nothing.
func appendDeep(ps pairs, prefix string, v any) pairs {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			ps = appendDeep(ps, prefix+"["+k+"]", x[k])
		}
	case []any:
		for i, e := range x {
			ps = appendDeep(ps, prefix+"["+strconv.Itoa(i)+"]", e)
		}
	case nil:
	default:
		s, _ := scalar(x)
		ps = append(ps, pair{prefix, s})
	}
	return ps
}

func styleName(s Style) string {
	switch s {
	case Simple:
		return "simple"
	case Form:
		return "form"
	case DeepObject:
		return "deepObject"
	case SpaceDelimited:
		return "spaceDelimited"
	case PipeDelimited:
		return "pipeDelimited"
	}
	return "Style(" + strconv.Itoa(int(s)) + ")"
}

// expandPath fills the path template's {name} placeholders with the path
// arguments, each escaped as one path segment.
func expandPath(tmpl string, vals map[string]string) (string, error) {
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String(), nil
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("path template %q has an unclosed {", tmpl)
		}
		name := tmpl[i+1 : i+j]
		v, ok := vals[name]
		if !ok {
			return "", fmt.Errorf("path parameter %q has no value", name)
		}
		if v == "" {
			return "", fmt.Errorf("path parameter %q is empty", name)
		}
		b.WriteString(tmpl[:i])
		b.WriteString(url.PathEscape(v))
		tmpl = tmpl[i+j+1:]
	}
}
