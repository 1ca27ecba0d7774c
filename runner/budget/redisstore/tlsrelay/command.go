package tlsrelay

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"
)

// Ready is what the program writes on its socket once the TLS
// connection is made: what follows is the server's.
const Ready = "ok\n"

// Main runs the program retry-tls with args (without the program's
// name) and returns its exit code: 0, 1 for a failure, whose cause is
// one line on stderr, 2 for bad usage.
//
//	retry-tls check [--cacert FILE] [--cert FILE --key FILE]
//	retry-tls connect --network tcp|unix --address ADDR --server-name NAME [--cacert FILE] [--cert FILE --key FILE] [--timeout D]
//
// check loads the files as Load does. connect relays a TLS connection to
// ADDR over its stdin, a socket: it writes Ready there once the
// handshake (bounded by --timeout) is done, then relays both ways until
// either side ends. It ends when its socket ends, so that it never
// outlives the process that holds the other end.
func Main(args []string, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: retry-tls check|connect [flags]: the TLS helper of retry's budget store")
		return 2
	}
	fs := flag.NewFlagSet("retry-tls "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	var f Files
	fs.StringVar(&f.CACert, "cacert", "", "the CA `FILE` the server's certificate is checked against (default: the system's roots)")
	fs.StringVar(&f.Cert, "cert", "", "the client certificate's `FILE`")
	fs.StringVar(&f.Key, "key", "", "the client certificate's private key `FILE`")
	var network, address, name string
	var timeout time.Duration
	if args[0] == "connect" {
		fs.StringVar(&network, "network", "tcp", "tcp or unix")
		fs.StringVar(&address, "address", "", "the server's HOST:PORT, or its socket's path")
		fs.StringVar(&name, "server-name", "", "the `NAME` the server's certificate is checked against")
		fs.DurationVar(&timeout, "timeout", 0, "bounds the connection and its handshake (default: none)")
	} else if args[0] != "check" {
		fmt.Fprintf(stderr, "retry-tls: unknown mode %q: check or connect\n", args[0])
		return 2
	}
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if fs.NArg() > 0 || args[0] == "connect" && (address == "" || name == "") {
		fmt.Fprintf(stderr, "retry-tls %s: bad arguments: %q\n", args[0], args[1:])
		return 2
	}
	cfg, err := Load(f)
	if err == nil && args[0] == "connect" {
		err = connect(network, address, name, timeout, cfg)
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// connect dials address and relays its TLS connection over stdin.
func connect(network, address, name string, timeout time.Duration, cfg *Config) error {
	stdin := os.NewFile(0, "stdin")
	local, err := net.FileConn(stdin)
	if err != nil {
		return fmt.Errorf("retry-tls: stdin must be a socket: %v", err)
	}
	stdin.Close()
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	// The socket's end, while the handshake runs, ends it too.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	watched := make(chan struct{})
	go func() {
		var b [1]byte
		if _, err := local.Read(b[:]); !errors.Is(err, os.ErrDeadlineExceeded) {
			cancel() // nothing is sent before Ready but the end
		}
		close(watched)
	}()
	c, err := cfg.Dial(ctx, network, address, name)
	local.SetReadDeadline(time.Unix(1, 0))
	<-watched
	local.SetReadDeadline(time.Time{})
	if err != nil {
		return err // local ends with the program, once it has said why
	}
	if _, err := io.WriteString(local, Ready); err != nil {
		c.Close()
		return nil // the other end is gone
	}
	return Relay(local, c)
}
