// Package client is the tiny client of bench/storm's service: one GET on
// a new connection, the attempt number in a header, exit 0 for a 2xx
// answer and 1 for anything else. It uses the net package alone, so that a
// couple of hundred of them a second cost little CPU. Only bench/storm
// imports it.
package client

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strings"
	"time"
)

// Header carries the attempt number (retry's RETRY_ATTEMPT) to the
// service, which counts first attempts and retries apart.
const Header = "X-Retry-Attempt"

// Main asks the service at args[0] (HOST:PORT) once, saying that this is
// attempt attempt, and returns the exit status: 0 for a 2xx answer, else 1
// with one line on stderr.
func Main(args []string, attempt string, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "stormclient: usage: stormclient HOST:PORT")
		return 2
	}
	if attempt == "" {
		attempt = "1"
	}
	status, err := get(args[0], attempt)
	if err != nil {
		fmt.Fprintf(stderr, "stormclient: %v\n", err)
		return 1
	}
	if !strings.HasPrefix(status, "2") {
		fmt.Fprintf(stderr, "stormclient: HTTP %s\n", status)
		return 1
	}
	return 0
}

// get sends one request and returns the answer's status code.
func get(addr, attempt string) (string, error) {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return "", err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	req := "GET / HTTP/1.1\r\nHost: " + addr + "\r\n" + Header + ": " + attempt + "\r\nConnection: close\r\n\r\n"
	if _, err := io.WriteString(c, req); err != nil {
		return "", err
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		return "", err
	}
	// "HTTP/1.1 503 Service Unavailable"
	f := strings.Fields(line)
	if len(f) < 2 || !strings.HasPrefix(f[0], "HTTP/") {
		return "", fmt.Errorf("not an HTTP answer: %q", strings.TrimSpace(line))
	}
	return f[1], nil
}
