package gen

// rawSpecs are adversarial specs for TestRawAdversarial: doc text of every
// kind go/doc/comment reads (lists, code, headings, links, pairs of
// backquotes or single quotes that gofmt turns into curly quotes), names
// with digits, underscores and unicode, enum values with quotes,
// backslashes, backquotes, unicode, the empty string and values that differ
// only in case, defaults of every kind, status and prompt templates with
// every placeholder kind, every flag combination, gates, icons, examples,
// batch tools, packages named like the packages the generated code
// imports, unicode Go names, unions, allOf, consts and HTTP bindings with
// doc text, the placeholder marker in user text, and carriage returns, NULs
// and byte order marks in doc text.
var rawSpecs = []struct{ name, yaml string }{
	{"docs", `toolgen: 1
provider: docs
package: docs
description: |
  Module doc with a list:
  - one
  - two
types:
  Mode:
    type: string
    enum: ["a\"b", "back\\slash", "back` + "`" + `tick", "café", "", "X", "x", "ünï"]
    description: |
      Mode is the mode. See [Doc] and [the site](https://example.com) and https://example.com/x.

      # Heading

      1. first
      2. second

          indented code
      	tabbed code
  Thing:
    type: object
    description: "Thing ` + "`" + `` + "`" + `quoted'' text with 'single' quotes and a verylongwordverylongwordverylongwordverylongwordverylongwordverylongwordverylongword here."
    properties:
      a: {type: string, description: "  trailing   "}
      b: {type: integer, description: "- a list item"}
tools:
  - name: docs_one
    title: "Title with \"quotes\" and ünïcode"
    description: |
      First line.
      - item one
      - item two
      3. numbered
      # not a heading
      [Doc]: https://example.com
    status: "{{literal}} {s} {e|none} {i} {f|0.0} {b} {t|never} {ps} {pi|?} {pf} {pb} {pt} {m}"
    params:
      s: {type: string, description: "## two hashes"}
      e: {type: string, enum: [x, y], default: x}
      i: {type: integer, default: -5}
      f: {type: number, default: 1.25}
      b: {type: boolean, default: true}
      t: {type: string, format: date-time, default: "2024-01-31T09:30:00Z"}
      ps: {type: [string, "null"]}
      pi: {type: [integer, "null"], default: 3}
      pf: {type: number, nullable: true}
      pb: {type: boolean, nullable: true, default: false}
      pt: {type: string, format: date-time, nullable: true}
      m: {$ref: "#/types/Mode"}
      thing: {$ref: "#/types/Thing"}
      d1_2: {type: string, description: "1. starts with a digit"}
      _x: {type: string, description: ". starts with punctuation"}
      Caps_9: {type: string, description: "Caps9 is the same name as the field."}
    required: [s]
  - name: docs_two
    description: "Docs2 starts with the name. A\ttab inside."
    status: "Two"
    params: {}
  - name: docs_agent
    kind: agent
    description: An agent.
    prompt: "Do {s} with {n|many} and {b} at {t}; {{x}} {e}"
    params:
      s: {type: string}
      n: {type: integer, nullable: true}
      b: {type: boolean}
      t: {type: string, format: date-time}
      e: {type: string, enum: ["q\"", "r"]}
    required: [s, b]
`},
	{"types", `toolgen: 1
provider: ty
package: strconv
types:
  Color:
    type: string
    enum: [red, green]
    description: |
      Color ` + "`" + `` + "`" + `x''.

      - a
      - b
  Hue:
    $ref: "#/types/Color"
    description: "Hue ` + "`" + `` + "`" + `y'' is another\n\n\tcode"
  Pt:
    type: object
    description: "Pt ` + "`" + `` + "`" + `z''\n\n  code"
    properties:
      x: {type: number}
      c: {$ref: "#/types/Color", default: red}
    required: [x]
  Pt2:
    type: object
    description: "Same shape ` + "`" + `` + "`" + `w''\n- list"
    properties:
      x: {type: number}
      c: {$ref: "#/types/Color", default: red}
    required: [x]
  Node:
    type: object
    description: "Recursive ` + "`" + `` + "`" + `node''.\n\n# H\n\ntext"
    properties:
      kids: {type: array, items: {$ref: "#/types/Node"}}
  U:
    description: "Union ` + "`" + `` + "`" + `u''\n\n1. one\n2. two"
    oneOf:
      - {type: string}
      - {type: object, properties: {a: {type: integer}}, required: [a]}
tools:
  - name: ty_paint
    description: Paint.
    status: "Paint {color} {hue|none} {n|0}"
    params:
      color: {$ref: "#/types/Color"}
      hue: {$ref: "#/types/Hue", nullable: true}
      pt: {$ref: "#/types/Pt"}
      pt2: {$ref: "#/types/Pt2"}
      node: {$ref: "#/types/Node"}
      u: {$ref: "#/types/U"}
      n: {type: integer, nullable: true}
      tags: {type: array, items: {type: string, enum: ["o'k", "` + "`" + `` + "`" + `"]}}
    required: [color]
    result: {$ref: "#/types/Pt"}
`},
	{"names", `toolgen: 1
provider: n2
package: errors
tools:
  - name: n2_get_v2_item_3
    description: "3 digits: 3d. Starts with a digit."
    status: "Item {item_id2} {x_y_z|none} {mode2}"
    params:
      item_id2: {type: integer}
      x_y_z: {type: string}
      mode2: {type: string, enum: [a1, "1a", "a-b", "a_b", "A B", "ÄÖ", "日本", "x\ty", "e\u00e9", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"]}
      big_enum: {type: string, enum: [alpha, beta, gamma, delta, epsilon, zeta, eta, theta, iota, kappa, lambda, mu, nu, xi, omicron]}
      __u: {type: string, go_name: Under}
      CamelCase: {type: number, default: -0.5}
      nested_obj:
        type: object
        description: "[Link] at the start; see https://example.com."
        properties:
          deep:
            type: object
            description: "# Heading-like"
            properties:
              v: {type: string, default: "quote\"back\\slash` + "`" + `tick"}
              w: {type: string, enum: [p, q], default: q, nullable: true}
              when: {type: string, format: date-time, default: "2020-01-01T00:00:00Z"}
              ptr_int: {type: [integer, "null"], default: 7}
    required: [item_id2]
`},
	{"flags", `toolgen: 1
provider: fl
package: fmt
gate: disk
gate_message: The disk is gone.
defer_loading: true
tools:
  - name: fl_all_on
    description: "` + "`" + `` + "`" + `Everything'' on."
    title: All
    destructive: true
    idempotent: true
    open_world: true
    concurrency_safe: true
    requires_approval: true
    defer_loading: false
    params:
      q: {type: string}
  - name: fl_off
    description: Disabled tool.
    enabled: false
    read_only: false
    open_world: false
    gate: other
    gate_message: Other is closed.
    params: {}
  - name: fl_by_input
    description: By input.
    read_only: by_input
    concurrency_safe: by_input
    permission_check: true
    params:
      path: {type: string}
    required: [path]
    result: {type: object, properties: {ok: {type: boolean}}}
  - name: fl_gate_none
    description: No gate.
    gate: none
    batch: {name: fl_gates_none, description: Many., max_items: 5, max_concurrency: 2}
    params:
      id: {type: integer}
    required: [id]
  - name: fl_same_gate_msg
    description: Same gate, same message.
    gate: disk
    gate_message: The disk is gone.
    examples:
      - {n: 1}
    params:
      n: {type: integer, minimum: -3, default: -1}
  - name: fl_five
    description: Five flags on.
    read_only: true
    idempotent: true
    open_world: true
    concurrency_safe: true
    params: {}
  - name: fl_icons
    description: With icons.
    icons:
      - {src: "https://example.com/a.png", mimeType: image/png}
    params: {}
`},
	{"zero", `toolgen: 1
provider: zero
package: context
types:
  Solo: {type: string, enum: [a, b], description: "Solo ` + "`" + `` + "`" + `lone'' value."}
tools:
  - name: zero_z
    description: Z.
    params:
      s: {$ref: "#/types/Solo"}

`},
	{"one", `toolgen: 1
provider: one
package: time
description: "Description that is long enough to wrap over the width of the comment for sure, with ` + "`" + `` + "`" + `quotes'' and 1. numbers."
tools:
  - name: one_x
    description: X.
    status: "{{ }} {{}} only {t}"
    params:
      t: {type: string, format: date-time}
    required: [t]
`},
	{"ctl", `toolgen: 1
provider: ctl
package: ctl
types:
  K:
    type: string
    enum: ["//toolgen:raw:0", "a\rb"]
    description: "K line\n//toolgen:raw:1\nmore\r\nend a\rb c\u2028d\u0085e\vf\fg\u007f"
tools:
  - name: ctl_x
    title: "//toolgen:raw:2"
    description: "X\n//toolgen:raw:3 and \rcr"
    status: "{{}}//toolgen:raw:4 {k}"
    params:
      k: {$ref: "#/types/K"}
      s: {type: string, default: "//toolgen:raw:5", description: "//toolgen:raw:6\n\n\t//toolgen:raw:7"}
    required: [k]
`},
	{"nul", `toolgen: 1
provider: nul
package: nul
tools:
  - name: nul_x
    description: "X has a \0 nul and a \uFEFF bom"
    params:
      s: {type: string, description: "nul \0 here \uFEFF"}
`},
	{"unicode", `toolgen: 1
provider: u
package: u
initialisms: [URL, ID]
gate: net-2
tools:
  - name: u_fetch_url
    go_name: Über
    description: Fetch.
    status: "Fetching {url_id}"
    status_fallback: "fetching ` + "`" + `` + "`" + `x''"
    gate: other_gate-3
    gate_message: "Closed \"x\"."
    params:
      url_id: {type: string, go_name: Größe}
    required: [url_id]
  - name: u_get_id
    description: Get.
    status: "plain text only"
    params:
      id: {type: string}
`},
	{"http", `toolgen: 1
provider: pets
package: json
gate: pets
description: "Pets ` + "`" + `` + "`" + `api''\n\nZZ Top\n\nthe end\u00a0"
http:
  base_url: https://api.example.com/v2
  auth: {type: api_key, in: header, name: X-API-Key}
types:
  Kind:
    description: "Kind ` + "`" + `` + "`" + `k''\n- x"
    oneOf:
      - {type: object, properties: {kind: {type: string, const: cat}, lives: {type: integer}}, required: [kind]}
      - {type: object, properties: {kind: {type: string, const: dog}, bark: {type: string}}, required: [kind]}
    discriminator: {propertyName: kind}
  Any:
    description: "  indented first line\n\ttab"
    anyOf:
      - {type: string}
      - {type: number}
  Both:
    description: "[Doc] first"
    allOf:
      - {type: object, properties: {a: {type: string}}}
      - {type: object, properties: {b: {type: integer}}}
  Tags: {type: array, items: {type: string}, description: "Tags ''x''"}
  Dict: {type: object, additionalProperties: {type: string}, description: "1. dict"}
tools:
  - name: pets_get_pet
    description: "Get a pet ` + "`" + `` + "`" + `by id''.\n\n    GET /pets/{id}"
    read_only: true
    status: "{pet_id}"
    params:
      pet_id: {type: string, description: "Id\u00a0"}
      k: {$ref: "#/types/Kind"}
      a: {$ref: "#/types/Any"}
      b: {$ref: "#/types/Both"}
      t: {$ref: "#/types/Tags"}
      d: {$ref: "#/types/Dict"}
      c: {type: integer, const: 3}
    required: [pet_id]
    http:
      method: get
      path: /pets/{id}
      args:
        pet_id: {in: path, name: id}
    result:
      description: "Result ` + "`" + `` + "`" + `r''\n\n# H"
      type: object
      properties:
        k: {type: string}
`},
	{"labels", `toolgen: 1
provider: l
package: l
types:
  Level: {type: integer, minimum: 0}
  Ratio: {type: number}
  On: {type: boolean}
  At: {type: string, format: date-time}
  Name: {type: string, minLength: 1}
tools:
  - name: l_x
    description: X.
    kind: agent
    status: "a\"b\\c ` + "`" + `` + "`" + `é` + "`" + `` + "`" + ` {lv|\"q\\\"} {r|ü} {on} {at|never} {nm|` + "`" + `} {plv} {pr} {pon|-} {pat} {pnm} {{{lv}}}"
    prompt: "{lv} {r} {on} {at} {nm} {plv|x} {pr} {pon} {pat|y} {pnm|\\}"
    params:
      lv: {$ref: "#/types/Level"}
      r: {$ref: "#/types/Ratio"}
      on: {$ref: "#/types/On"}
      at: {$ref: "#/types/At"}
      nm: {$ref: "#/types/Name"}
      plv: {$ref: "#/types/Level", nullable: true}
      pr: {$ref: "#/types/Ratio", nullable: true}
      pon: {$ref: "#/types/On", nullable: true}
      pat: {$ref: "#/types/At", nullable: true}
      pnm: {$ref: "#/types/Name", nullable: true}
    required: [lv, on]
`},
	{"enums", `toolgen: 1
provider: e
package: e
tools:
  - name: e_x
    description: X.
    status: "{m} {n}"
    params:
      m: {type: string, enum: ["", "empty", "Empty", "EMPTY", "a b", "a_b", "a-b", "AB", "1", "-1", "+", "_"], default: ""}
      n: {type: integer, enum: [-1, 0, 1, 10]}
      o: {type: number, enum: [0.5, -2]}
`},
}
