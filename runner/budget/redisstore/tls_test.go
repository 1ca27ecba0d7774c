package redisstore

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/internal/redistest"
)

// tlsServer starts a TLS-only server for the test, or skips it without
// redis-server or openssl.
func tlsServer(t *testing.T, cfg redistest.Config) *redistest.Server {
	t.Helper()
	cfg.TLS = true
	s, err := redistest.Start(t.TempDir(), cfg)
	if errors.Is(err, redistest.ErrNoServer) || errors.Is(err, redistest.ErrNoOpenSSL) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

// TestTLS: rediss:// checks the server's certificate against the
// system's roots, which SSL_CERT_FILE names: with the server's CA there
// it works; with another, the cause is said. Plain text to a TLS port is
// a store failure.
func TestTLS(t *testing.T) {
	srv := tlsServer(t, redistest.Config{Password: "tls-secret"})
	for _, tc := range []struct{ roots, want string }{
		{srv.CAFile, ""},
		{srv.Certs.OtherCA, "TLS: unknown CA"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "REDISSTORE_TEST_FIRST="+srv.URL(), "SSL_CERT_FILE="+tc.roots, "SSL_CERT_DIR=/nonexistent")
		out, err := cmd.Output()
		if tc.want == "" && err != nil || tc.want != "" && !strings.Contains(string(out), tc.want) {
			t.Fatalf("with the roots of %s: %v, %q; want %q", tc.roots, err, out, tc.want)
		}
		if strings.Contains(string(out), "secret") {
			t.Fatalf("%q shows the password", out)
		}
	}
	plain := strings.Replace(srv.URL(), "rediss://", "redis://", 1)
	_, err := open(t, plain, "tls", Options{Timeout: 300 * time.Millisecond}).RecordFirst(context.Background(), time.Time{})
	checkStoreError(t, "plain text to a TLS port", err, "")
}

// TestClientCertificates: against a server with tls-auth-clients yes,
// the client certificate of cert= and key= and the CA of cacert= work;
// each way of getting them wrong is a store failure that names its
// cause, and never shows the password.
func TestClientCertificates(t *testing.T) {
	srv := tlsServer(t, redistest.Config{ClientCerts: true, Password: "mtls-secret"})
	c := srv.Certs
	base := srv.URL() + "?cacert=" + c.CA
	withCert := "&cert=" + c.ClientCert + "&key=" + c.ClientKey
	ctx := context.Background()
	s := open(t, base+withCert, "mtls", Options{})
	for range 2 {
		if _, err := s.RecordFirst(ctx, time.Time{}); err != nil {
			t.Fatalf("with a client certificate: %v", err)
		}
	}
	// The name a certificate is checked against: localhost is in it.
	byName := strings.Replace(base, "127.0.0.1", "localhost", 1) + withCert
	if snap, err := open(t, byName, "mtls", Options{}).RecordFirst(ctx, time.Time{}); err != nil || snap.Firsts != 3 {
		t.Fatalf("by the name localhost: %+v, %v", snap, err)
	}
	if _, err := open(t, base+withCert+"&sni=localhost", "mtls", Options{}).RecordFirst(ctx, time.Time{}); err != nil {
		t.Fatalf("with sni=localhost: %v", err)
	}
	for _, tc := range []struct{ what, url, want string }{
		{"no client certificate", base, "TLS: certificate required"},
		{"the wrong CA", srv.URL() + "?cacert=" + c.OtherCA + withCert, "TLS: unknown CA"},
		{"the wrong sni", base + withCert + "&sni=redis.example", `TLS: name mismatch: the server's certificate is not valid for "redis.example"`},
	} {
		for range 3 { // the same cause each time, however the race of a refused handshake runs
			_, err := open(t, tc.url, "mtls", Options{}).RecordFirst(ctx, time.Time{})
			checkStoreError(t, tc.what, err, tc.want)
		}
	}
}

// TestSentinelTLS: rediss+sentinel:// speaks TLS, with the URL's CA, to
// the Sentinel and to the primary it names.
func TestSentinelTLS(t *testing.T) {
	primary := tlsServer(t, redistest.Config{Password: "st-secret"})
	sentinel, err := redistest.StartSentinel(t.TempDir(), "mymaster", primary, time.Second, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sentinel.Stop)
	url := "rediss+sentinel://:st-secret@" + sentinel.Addr() + "/mymaster?cacert=" + primary.CAFile
	for range 2 {
		if _, err := open(t, url, "st", Options{}).RecordFirst(context.Background(), time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := primary.Do("HLEN", Key("st", "window")); err != nil || n.(int64) < 1 {
		t.Fatalf("the primary holds %v fields of the window (%v)", n, err)
	}
	other := strings.Replace(url, primary.CAFile, primary.Certs.OtherCA, 1)
	_, err = open(t, other, "st", Options{}).RecordFirst(context.Background(), time.Time{})
	checkStoreError(t, "the wrong CA", err, "Sentinel "+sentinel.Addr()+": TLS: unknown CA")
}
