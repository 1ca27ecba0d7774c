package docpage

import "testing"

func TestReplace(t *testing.T) {
	const begin, end = "<!-- BEGIN -->\n", "<!-- END -->\n"
	for _, tc := range []struct {
		name, page, want string
		ok               bool
	}{
		{"replaced", "intro\n" + begin + "old\n" + end + "outro\n", "intro\n" + begin + "new\n" + end + "outro\n", true},
		{"empty between", begin + end, begin + "new\n" + end, true},
		{"a later end marker stays", begin + "old\n" + end + "x\n" + end, begin + "new\n" + end + "x\n" + end, true},
		{"no begin", "no markers\n" + end, "", false},
		{"no end", begin + "old\n", "", false},
		{"end before begin", end + begin, "", false},
	} {
		got, err := Replace(tc.page, begin, end, "new\n")
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("%s: Replace = %q, %v; want %q, ok %v", tc.name, got, err, tc.want, tc.ok)
		}
	}
}
