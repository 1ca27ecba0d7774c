package redisstore

import (
	"strings"
	"testing"
)

func TestParseURL(t *testing.T) {
	for _, tc := range []struct {
		raw     string
		want    Address
		shown   string
		wantErr string
	}{
		{"redis://127.0.0.1", Address{Host: "127.0.0.1", Port: 6379}, "redis://127.0.0.1:6379/0", ""},
		{"redis://h:7000/3", Address{Host: "h", Port: 7000, DB: 3}, "redis://h:7000/3", ""},
		{"rediss://h/", Address{TLS: true, Host: "h", Port: 6379}, "rediss://h:6379/0", ""},
		{"redis://:s3cret@h", Address{Host: "h", Port: 6379, Password: "s3cret"}, "redis://:***@h:6379/0", ""},
		{"redis://ops:s%40cret@[::1]:1/2", Address{Host: "::1", Port: 1, User: "ops", Password: "s@cret", DB: 2}, "redis://ops:***@[::1]:1/2", ""},
		{"", Address{}, "", "empty"},
		{"http://h", Address{}, "", "redis:// or rediss://"},
		{"h:6379", Address{}, "", "redis:// or rediss://"},
		{"redis://", Address{}, "", "no host"},
		{"redis://:pw@h:0", Address{}, "", "port must be"},
		{"redis://:pw@h:99999", Address{}, "", "port must be"},
		{"redis://:pw@h:x", Address{}, "", "not a URL"},
		{"redis://h:", Address{}, "", "port is empty"},
		{"redis://h/x", Address{}, "", "database must be"},
		{"redis://h/01", Address{}, "", "database must be"},
		{"redis://h/-1", Address{}, "", "database must be"},
		{"redis://h?db=1", Address{}, "", "no query"},
		{"redis://user@h", Address{}, "", "without a password"},
	} {
		t.Run(tc.raw, func(t *testing.T) {
			got, err := ParseURL(tc.raw)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				if strings.Contains(err.Error(), "pw") {
					t.Fatalf("the error %q shows the password", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			if s := got.String(); s != tc.shown {
				t.Fatalf("String() = %q, want %q", s, tc.shown)
			}
		})
	}
}
