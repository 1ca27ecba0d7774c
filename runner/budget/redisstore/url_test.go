package redisstore

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseURL(t *testing.T) {
	srv := func(hosts ...string) Address { return Address{Hosts: hosts} }
	for _, tc := range []struct {
		raw     string
		want    Address
		shown   string
		wantErr string
	}{
		{"redis://127.0.0.1", srv("127.0.0.1:6379"), "redis://127.0.0.1:6379/0", ""},
		{"redis://h:7000/3", Address{Hosts: []string{"h:7000"}, DB: 3}, "redis://h:7000/3", ""},
		{"rediss://h/", Address{TLS: true, Hosts: []string{"h:6379"}}, "rediss://h:6379/0", ""},
		{"redis://:s3cret@h", Address{Hosts: []string{"h:6379"}, Password: "s3cret"}, "redis://:***@h:6379/0", ""},
		{"redis://ops:s%40cret@[::1]:1/2", Address{Hosts: []string{"[::1]:1"}, User: "ops", Password: "s@cret", DB: 2}, "redis://ops:***@[::1]:1/2", ""},
		{"redis://h?timeout=250ms", Address{Hosts: []string{"h:6379"}, Timeout: 250 * time.Millisecond}, "redis://h:6379/0", ""},
		{"rediss://h?sni=redis.internal&timeout=3s", Address{TLS: true, Hosts: []string{"h:6379"}, SNI: "redis.internal", Timeout: 3 * time.Second}, "rediss://h:6379/0", ""},
		{"redis+sentinel://:pw@s1,s2:26380,[::1]/mymaster/2", Address{Kind: Sentinel, Hosts: []string{"s1:26379", "s2:26380", "[::1]:26379"}, Master: "mymaster", Password: "pw", DB: 2},
			"redis+sentinel://:***@s1:26379,s2:26380,[::1]:26379/mymaster/2", ""},
		{"redis+sentinel://s/m", Address{Kind: Sentinel, Hosts: []string{"s:26379"}, Master: "m"}, "redis+sentinel://s:26379/m/0", ""},
		{"rediss+sentinel://s/m?sni=x", Address{Kind: Sentinel, TLS: true, Hosts: []string{"s:26379"}, Master: "m", SNI: "x"}, "rediss+sentinel://s:26379/m/0", ""},
		{"unix:///run/redis/redis.sock?db=4", Address{Kind: Socket, Path: "/run/redis/redis.sock", DB: 4}, "unix:///run/redis/redis.sock?db=4", ""},
		{"unix://app:pw@/r.sock", Address{Kind: Socket, Path: "/r.sock", User: "app", Password: "pw"}, "unix://app:***@/r.sock?db=0", ""},

		{"", Address{}, "", "empty"},
		{"http://h", Address{}, "", `redis://, rediss://, redis+sentinel:// or unix://, got scheme "http"`},
		{"h:6379", Address{}, "", "must start with"},
		{"redis://", Address{}, "", "no host"},
		{"redis://:pw@h:0", Address{}, "", "port must be"},
		{"redis://:pw@h:99999", Address{}, "", "port must be"},
		{"redis://:pw@h:x", Address{}, "", `port must be from 1 to 65535, got "x"`},
		{"redis://h:", Address{}, "", "port is empty"},
		{"redis://h/x", Address{}, "", "database must be"},
		{"redis://h/01", Address{}, "", "database must be"},
		{"redis://h/-1", Address{}, "", "database must be"},
		{"redis://user@h", Address{}, "", "without a password"},
		{"redis://:p/w@h", Address{}, "", "percent-encode"},
		{"redis://:p?w@h", Address{}, "", "percent-encode"},
		{"redis://:pw@h#x", Address{}, "", "no fragment"},
		{"redis://:pw@h?db=1", Address{}, "", "db= is for unix://"},
		{"redis://:pw@h?bogus=1", Address{}, "", `unknown parameter "bogus"`},
		{"redis://:pw@h?timeout=", Address{}, "", "timeout= needs a value"},
		{"redis://:pw@h?timeout=5", Address{}, "", `timeout= must be a positive duration such as 500ms or 2s, got "5"`},
		{"redis://:pw@h?timeout=-1s", Address{}, "", "positive duration"},
		{"redis://:pw@h?timeout=1s&timeout=2s", Address{}, "", "given twice"},
		{"redis://:pw@h?cacert=/ca.pem", Address{}, "", "cacert= is for TLS: use rediss://"},
		{"redis+sentinel://:pw@h/m?sni=x", Address{}, "", "sni= is for TLS: use rediss+sentinel://"},
		{"unix:///r.sock?cert=/c.pem", Address{}, "", "cert= is for TLS, which unix:// does not use"},
		{"rediss://:pw@h?cert=/c.pem", Address{}, "", "cert= needs key="},
		{"rediss://:pw@h?key=/k.pem", Address{}, "", "key= needs cert="},
		{"redis+sentinel://:pw@h", Address{}, "", "names no primary"},
		{"redis+sentinel://:pw@h,,k/m", Address{}, "", "no host"},
		{"unix://:pw@host/r.sock", Address{}, "", "takes no host"},
		{"unix://:pw@", Address{}, "", "names no socket"},
		{"unix:///r.sock?db=x", Address{}, "", "database must be"},
		{"redis://h!x", Address{}, "", "a character a host name cannot have"},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			got, err := ParseURL(tc.raw)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "pw") || strings.Contains(err.Error(), "p/w") {
					t.Fatalf("the error %q shows the password", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.tls = nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			if s := got.String(); s != tc.shown {
				t.Fatalf("String() = %q, want %q", s, tc.shown)
			}
		})
	}
}

// TestTLSFiles: unreadable and mismatched TLS files are refused when
// they are loaded, before anything is sent.
func TestTLSFiles(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.pem")
	os.WriteFile(junk, []byte("not a certificate\n"), 0o600)
	none := filepath.Join(dir, "none.pem")
	// missing is the error of opening a missing file, in the OS's words.
	missing := func(path string) string {
		_, err := os.Open(path)
		return err.Error()
	}
	for _, tc := range []struct{ query, want string }{
		{"cacert=" + junk, "holds no PEM certificate"},
		{"cert=" + junk + "&key=" + junk, "cert= and key=: tls: failed to find any PEM data"},
		{"cert=" + none + "&key=" + junk, missing(none)},
		{"cacert=/no/such/ca.pem", "cacert=: " + missing("/no/such/ca.pem")},
	} {
		a, err := ParseURL("rediss://:pw@h?" + tc.query)
		if err != nil {
			t.Fatal(err)
		}
		err = a.LoadTLS()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.query, err, tc.want)
		}
	}
}

func TestHashSlot(t *testing.T) {
	for key, want := range map[string]int{
		"123456789":            12739, // CRC16/XMODEM's check value, 0x31C3
		"foo":                  12182,
		"{user1000}.following": hashSlot("user1000"),
		"foo{}{bar}":           hashSlot("foo{}{bar}"),
		"{}x":                  hashSlot("{}x"),
	} {
		if got := hashSlot(key); got != want {
			t.Errorf("hashSlot(%q) = %d, want %d", key, got, want)
		}
	}
	if hashSlot(Key("b", "window")) != hashSlot(Key("b", "slots")) {
		t.Fatal("a budget's keys are in two hash slots")
	}
}
