package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// This file checks JSON documents against docs/report.schema.json with a
// validator for the part of JSON Schema (draft 2020-12) that the schema
// uses. A keyword the validator does not know is an error, so the schema
// cannot rely on a check that silently does not happen.

// loadSchema reads docs/report.schema.json.
func loadSchema(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "docs", "report.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := decodeJSON(data)
	if err != nil {
		t.Fatalf("docs/report.schema.json: %v", err)
	}
	schema, ok := v.(map[string]any)
	if !ok {
		t.Fatal("docs/report.schema.json: not an object")
	}
	return schema
}

// decodeJSON decodes one JSON value, keeping numbers as json.Number so that
// integers can be told from other numbers.
func decodeJSON(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if d.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return v, nil
}

// validate returns the ways in which doc breaks schema, one line each.
func validate(schema map[string]any, doc any) []string {
	v := validator{root: schema}
	v.check(schema, doc, "$")
	return v.errs
}

type validator struct {
	root map[string]any
	errs []string
}

func (v *validator) errorf(path, format string, args ...any) {
	v.errs = append(v.errs, path+": "+fmt.Sprintf(format, args...))
}

// check validates x, found at path, against the schema s.
func (v *validator) check(s map[string]any, x any, path string) {
	for _, kw := range slices.Sorted(maps.Keys(s)) {
		arg := s[kw]
		switch kw {
		case "$schema", "$id", "title", "description", "$defs", "format":
			// annotations; format is an annotation in 2020-12 unless asserted
		case "$ref":
			ref, _ := arg.(string)
			target, ok := v.resolve(ref)
			if !ok {
				v.errorf(path, "schema: cannot resolve $ref %q", ref)
				continue
			}
			v.check(target, x, path)
		case "type":
			if !hasType(x, arg) {
				v.errorf(path, "%s is not of type %v", jsonText(x), arg)
			}
		case "const":
			if !jsonEqual(x, arg) {
				v.errorf(path, "%s is not %v", jsonText(x), arg)
			}
		case "enum":
			list, _ := arg.([]any)
			if !slices.ContainsFunc(list, func(e any) bool { return jsonEqual(x, e) }) {
				v.errorf(path, "%s is not one of %v", jsonText(x), list)
			}
		case "required":
			obj, ok := x.(map[string]any)
			if !ok {
				continue
			}
			for _, name := range arg.([]any) {
				if _, ok := obj[name.(string)]; !ok {
					v.errorf(path, "required property %q is missing", name)
				}
			}
		case "properties":
			obj, ok := x.(map[string]any)
			if !ok {
				continue
			}
			for name, sub := range arg.(map[string]any) {
				if val, ok := obj[name]; ok {
					v.check(sub.(map[string]any), val, path+"."+name)
				}
			}
		case "additionalProperties":
			obj, ok := x.(map[string]any)
			if !ok {
				continue
			}
			props, _ := s["properties"].(map[string]any)
			for _, name := range slices.Sorted(maps.Keys(obj)) {
				if _, known := props[name]; known {
					continue
				}
				switch a := arg.(type) {
				case bool:
					if !a {
						v.errorf(path, "property %q is not allowed", name)
					}
				case map[string]any:
					v.check(a, obj[name], path+"."+name)
				}
			}
		case "items":
			arr, ok := x.([]any)
			if !ok {
				continue
			}
			for i, e := range arr {
				v.check(arg.(map[string]any), e, fmt.Sprintf("%s[%d]", path, i))
			}
		case "minItems":
			if arr, ok := x.([]any); ok && float64(len(arr)) < number(arg) {
				v.errorf(path, "%d items, want at least %v", len(arr), arg)
			}
		case "maxItems":
			if arr, ok := x.([]any); ok && float64(len(arr)) > number(arg) {
				v.errorf(path, "%d items, want at most %v", len(arr), arg)
			}
		case "dependentRequired":
			obj, ok := x.(map[string]any)
			if !ok {
				continue
			}
			for _, name := range slices.Sorted(maps.Keys(arg.(map[string]any))) {
				if _, ok := obj[name]; !ok {
					continue
				}
				for _, dep := range arg.(map[string]any)[name].([]any) {
					if _, ok := obj[dep.(string)]; !ok {
						v.errorf(path, "property %q requires %q, which is missing", name, dep)
					}
				}
			}
		case "minimum", "maximum":
			n, ok := x.(json.Number)
			if !ok {
				continue
			}
			f, _ := n.Float64()
			if kw == "minimum" && f < number(arg) || kw == "maximum" && f > number(arg) {
				v.errorf(path, "%v is beyond the %s %v", n, kw, arg)
			}
		case "minLength", "maxLength":
			str, ok := x.(string)
			if !ok {
				continue
			}
			n := float64(utf8.RuneCountInString(str))
			if kw == "minLength" && n < number(arg) || kw == "maxLength" && n > number(arg) {
				v.errorf(path, "%q has %v characters, beyond the %s %v", str, n, kw, arg)
			}
		case "pattern":
			str, ok := x.(string)
			if !ok {
				continue
			}
			re, err := regexp.Compile(arg.(string))
			if err != nil {
				v.errorf(path, "schema: pattern %q: %v", arg, err)
			} else if !re.MatchString(str) {
				v.errorf(path, "%q does not match %q", str, arg)
			}
		case "not":
			if len(validate(v.rootWith(arg.(map[string]any)), x)) == 0 {
				v.errorf(path, "%s matches a schema it must not", jsonText(x))
			}
		case "oneOf":
			n := 0
			for _, sub := range arg.([]any) {
				if len(validate(v.rootWith(sub.(map[string]any)), x)) == 0 {
					n++
				}
			}
			if n != 1 {
				v.errorf(path, "matches %d of the oneOf schemas, want exactly 1", n)
			}
		default:
			v.errorf(path, "schema: keyword %q is not supported by this validator", kw)
		}
	}
}

// rootWith returns s as a schema that resolves $ref against the root.
func (v *validator) rootWith(s map[string]any) map[string]any {
	if _, ok := s["$defs"]; ok {
		return s
	}
	out := map[string]any{"$defs": v.root["$defs"]}
	for k, val := range s {
		out[k] = val
	}
	return out
}

// resolve finds a local reference such as #/$defs/attempt.
func (v *validator) resolve(ref string) (map[string]any, bool) {
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, false
	}
	var cur any = v.root
	for _, part := range strings.Split(rest, "/") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		cur = m[part]
	}
	s, ok := cur.(map[string]any)
	return s, ok
}

// hasType reports whether x is of the JSON Schema type t (a name or a list).
func hasType(x any, t any) bool {
	if list, ok := t.([]any); ok {
		return slices.ContainsFunc(list, func(e any) bool { return hasType(x, e) })
	}
	switch t {
	case "object":
		_, ok := x.(map[string]any)
		return ok
	case "array":
		_, ok := x.([]any)
		return ok
	case "string":
		_, ok := x.(string)
		return ok
	case "boolean":
		_, ok := x.(bool)
		return ok
	case "null":
		return x == nil
	case "number":
		_, ok := x.(json.Number)
		return ok
	case "integer":
		n, ok := x.(json.Number)
		if !ok {
			return false
		}
		f, err := n.Float64()
		return err == nil && f == math.Trunc(f)
	}
	return false
}

// jsonEqual compares two decoded JSON values, numbers by value.
func jsonEqual(a, b any) bool {
	na, aok := a.(json.Number)
	nb, bok := b.(json.Number)
	if aok && bok {
		fa, _ := na.Float64()
		fb, _ := nb.Float64()
		return fa == fb
	}
	return reflect.DeepEqual(a, b)
}

func number(x any) float64 {
	n, _ := x.(json.Number)
	f, _ := n.Float64()
	return f
}

func jsonText(x any) string {
	b, _ := json.Marshal(x)
	return string(b)
}
