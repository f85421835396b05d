package main

import (
	"bytes"
	"runtime/debug"
	"strings"

	"github.com/toolgen/toolgen/gen"
)

// version is toolgen's version as the build recorded it: the module
// version when toolgen was built from a published version (go install
// …@v1.2.3, go tool with a required version); "devel" and the directory
// for a local checkout a go.mod replace points at; otherwise "devel" with
// the VCS revision and time, and "+dirty" for uncommitted changes, when
// the build stamped them. It never goes into generated files.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel (no build information)"
	}
	return versionOf(info)
}

// versionOf is version for the given build information.
func versionOf(info *debug.BuildInfo) string {
	// A local checkout that a consuming module's go.mod replaces toolgen
	// with: the required version is only a placeholder.
	if r := info.Main.Replace; r != nil && (r.Version == "" || r.Version == "(devel)") {
		return "devel (local checkout " + r.Path + ", required as " + info.Main.Version + ")"
	}
	if r := info.Main.Replace; r != nil && r.Version != "" {
		return r.Version + " (" + r.Path + ", replacing " + info.Main.Version + ")"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel (no VCS revision: built with -buildvcs=false, or outside a repository)"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	var b strings.Builder
	b.WriteString("devel " + rev)
	if dirty {
		b.WriteString("+dirty")
	}
	if at != "" {
		b.WriteString(" (" + at + ")")
	}
	return b.String()
}

// stampVersion adds a line naming toolgen's version v under the "Code
// generated" line of each generated Go file: what -stamp asks for. Without
// it generated files name no version, so two toolgen builds that generate
// the same code write the same bytes (and check agrees across them); with
// it, generate and check must both be given -stamp by the same toolgen.
func stampVersion(outs []*gen.Output, v string) {
	for _, out := range outs {
		for i, f := range out.Files {
			if f.Kind != gen.FileGenerated {
				continue
			}
			nl := bytes.IndexByte(f.Content, '\n')
			if nl < 0 {
				continue
			}
			var b bytes.Buffer
			b.Write(f.Content[:nl+1])
			b.WriteString("// toolgen version: " + strings.ReplaceAll(v, "\n", " ") + "\n")
			b.Write(f.Content[nl+1:])
			out.Files[i].Content = b.Bytes()
		}
	}
}
