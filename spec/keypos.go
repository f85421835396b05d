package spec

// keys records where each key of a mapping was written.
func (p *parser) keys(m *fields) map[string]Pos {
	if m == nil || len(m.list) == 0 {
		return nil
	}
	keys := make(map[string]Pos, len(m.list))
	for _, e := range m.list {
		keys[e.name] = p.pos(e.Key)
	}
	return keys
}

// keyPos is the position of key in keys, or else def.
func keyPos(keys map[string]Pos, key string, def Pos) Pos {
	if p, ok := keys[key]; ok {
		return p
	}
	return def
}

// KeyPos is where the module-level key was written (its key, "gate" of
// `gate: stripe`), or the file's position when it is not written.
func (f *File) KeyPos(key string) Pos { return keyPos(f.Keys, key, f.Pos) }

// KeyPos is where the tool's key was written, or the tool's position when
// the tool does not write it.
func (t *Tool) KeyPos(key string) Pos { return keyPos(t.Keys, key, t.Pos) }

// KeyPos is where the schema's keyword was written ("maximum" of
// `{type: integer, maximum: 10}`), or the schema's position when it is not
// written.
func (s *Schema) KeyPos(key string) Pos { return keyPos(s.Keys, key, s.Pos) }
