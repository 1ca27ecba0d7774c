package main

import (
	"errors"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/b0a38808/retry/bench/storm/internal/client"
)

// binWidth is the resolution at which the service counts its requests.
const binWidth = 100 * time.Millisecond

// service is the HTTP service the clients call: 200, then 503 to every
// request from outageFrom to outageTo after it starts, then 200 again. It
// counts first attempts and retries in bins of binWidth.
type service struct {
	start                time.Time
	outageFrom, outageTo time.Duration
	firsts, retries      []atomic.Int64 // per bin; the last bin holds what came later
	srv                  *http.Server
	addr                 string
}

// startService starts the service on a free loopback port. Its clock
// starts now; it keeps bins for span and counts later requests in the
// last one.
func startService(outageFrom, outageTo, span time.Duration) (*service, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	n := int(span/binWidth) + 1
	s := &service{
		outageFrom: outageFrom, outageTo: outageTo,
		firsts: make([]atomic.Int64, n), retries: make([]atomic.Int64, n),
		addr: ln.Addr().String(),
	}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.srv.SetKeepAlivesEnabled(false)
	s.start = time.Now()
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			panic(err)
		}
	}()
	return s, nil
}

// ServeHTTP counts the request and answers it.
func (s *service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	at := time.Since(s.start)
	i := min(int(at/binWidth), len(s.firsts)-1)
	if r.Header.Get(client.Header) == "1" {
		s.firsts[i].Add(1)
	} else {
		s.retries[i].Add(1)
	}
	if at >= s.outageFrom && at < s.outageTo {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	w.Write([]byte("ok\n"))
}

// counts returns the service's counts per bin so far.
func (s *service) counts() (firsts, retries []int64) {
	firsts, retries = make([]int64, len(s.firsts)), make([]int64, len(s.retries))
	for i := range s.firsts {
		firsts[i], retries[i] = s.firsts[i].Load(), s.retries[i].Load()
	}
	return firsts, retries
}

// stop closes the service.
func (s *service) stop() { s.srv.Close() }
