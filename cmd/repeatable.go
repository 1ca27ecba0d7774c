package cmd

import (
	"bytes"
	"encoding/csv"
	"strings"

	"github.com/spf13/pflag"
)

// repeatableVar declares a repeatable flag on fs: each use appends its
// value to *p, as pflag's StringArrayVar does. Declaring one of pflag's
// costs an encoding/csv writer, on every start, to print the empty
// default; this value prints it as such.
func repeatableVar(fs *pflag.FlagSet, p *[]string, name, usage string) {
	*p = nil
	fs.Var(&repeatable{values: p}, name, usage)
	// pflag shows no default for its own empty string arrays; for a Value
	// of another type it takes only an empty DefValue as none.
	fs.Lookup(name).DefValue = ""
}

// repeatable is the pflag.Value and pflag.SliceValue of a repeatable
// flag, with the type name and the text of pflag's string arrays.
type repeatable struct {
	values  *[]string
	changed bool
}

func (r *repeatable) Set(v string) error {
	if !r.changed {
		*r.values, r.changed = nil, true
	}
	*r.values = append(*r.values, v)
	return nil
}

// Type names the value as pflag names a string array.
func (r *repeatable) Type() string { return "stringArray" }

// String returns the values as pflag prints a string array: "[]", or
// "[" and the values as one CSV record and "]".
func (r *repeatable) String() string {
	if len(*r.values) == 0 {
		return "[]"
	}
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(*r.values)
	w.Flush()
	return "[" + strings.TrimSuffix(b.String(), "\n") + "]"
}

// Append adds v, as Set does after the first use.
func (r *repeatable) Append(v string) error {
	*r.values = append(*r.values, v)
	return nil
}

// Replace sets the values to vs.
func (r *repeatable) Replace(vs []string) error {
	*r.values = append([]string(nil), vs...)
	return nil
}

// GetSlice returns a copy of the values.
func (r *repeatable) GetSlice() []string { return append([]string{}, *r.values...) }
