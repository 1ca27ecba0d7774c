package redisstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/b0a38808/retry/internal/redistest"
)

// sentinelSet is a primary, two replicas and a Sentinel that watches
// them as "mymaster", with a short down-after-milliseconds.
type sentinelSet struct {
	primary  *redistest.Server
	replicas [2]*redistest.Server
	sentinel *redistest.Server
}

func startSentinelSet(t *testing.T, password string) *sentinelSet {
	t.Helper()
	dir := t.TempDir()
	set := &sentinelSet{primary: server(t, redistest.Config{Password: password})}
	sub := func(name string) string { d := filepath.Join(dir, name); mkdir(t, d); return d }
	var err error
	for i := range set.replicas {
		if set.replicas[i], err = redistest.StartReplica(sub("replica"+strconv.Itoa(i)), set.primary); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(set.replicas[i].Stop)
	}
	if set.sentinel, err = redistest.StartSentinel(sub("sentinel"), "mymaster", set.primary, 300*time.Millisecond, 2); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(set.sentinel.Stop)
	return set
}

// url returns the Sentinel URL of the set, with a Sentinel that is not
// there first.
func (set *sentinelSet) url(t *testing.T, password string) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := ln.Addr().String()
	ln.Close()
	auth := ""
	if password != "" {
		auth = ":" + password + "@"
	}
	return "redis+sentinel://" + auth + gone + "," + set.sentinel.Addr() + "/mymaster"
}

// promoted waits until the Sentinel names one of servers as the primary,
// and that one says it is, and returns it.
func (set *sentinelSet) promoted(t *testing.T, servers ...*redistest.Server) *redistest.Server {
	t.Helper()
	got, err := set.sentinel.AwaitPrimary("mymaster", 30*time.Second, servers...)
	if err != nil {
		t.Fatal("no replica promoted: ", err)
	}
	return got
}

// firsts returns the first attempts that server holds in budget name's
// window.
func firsts(t *testing.T, server *redistest.Server, name string) int64 {
	t.Helper()
	v, err := server.Do("EVAL", `local n, h = 0, redis.call('HGETALL', KEYS[1])
for i = 1, #h, 2 do
  if string.sub(h[i], 1, 2) == 'f:' then n = n + tonumber(h[i + 1]) end
end
return n`, "1", Key(name, "window"))
	if err != nil {
		t.Fatal(err)
	}
	return v.(int64)
}

// TestSentinel: the store is the primary the Sentinels name. When the
// primary is SIGKILLed and a replica promoted, the same store and a new
// one go on with no error, and the budget's counts survive; when a
// failover names another primary while the old one still takes writes,
// the store moves to the new one.
func TestSentinel(t *testing.T) {
	t.Parallel()
	set := startSentinelSet(t, "sentinel-secret")
	ctx := context.Background()
	url := set.url(t, "sentinel-secret")
	before := open(t, url, "sentinel", Options{})
	for range 5 {
		if _, err := before.RecordFirst(ctx, time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	// The replicas have the counts before the primary dies.
	if err := set.primary.Replicated(2); err != nil {
		t.Fatal(err)
	}
	set.primary.Stop()
	next := set.promoted(t, set.replicas[:]...)
	time.Sleep(idle) // past the time the store takes an idle connection on trust
	snap, err := before.RecordFirst(ctx, time.Time{})
	if err != nil || snap.Firsts != 6 {
		t.Fatalf("the same store after the failover: %+v, %v; want 6 firsts", snap, err)
	}
	after := open(t, url, "sentinel", Options{})
	if snap, err = after.RecordFirst(ctx, time.Time{}); err != nil || snap.Firsts != 7 {
		t.Fatalf("a new store after the failover: %+v, %v; want 7 firsts", snap, err)
	}

	// A failover on demand: the Sentinel names the other replica, and the
	// demoted primary takes writes for seconds yet. The store asks the
	// Sentinel again and writes to the new one only.
	other := set.replicas[0]
	if other == next {
		other = set.replicas[1]
	}
	err = waitUntil(30*time.Second, func() bool {
		port, _ := other.Info("replication", "master_port")
		link, _ := other.Info("replication", "master_link_status")
		return port == strconv.Itoa(next.Port) && link == "up"
	})
	if err != nil {
		t.Fatal("the other replica does not follow the new primary: ", err)
	}
	if err := next.Replicated(1); err != nil {
		t.Fatal(err)
	}
	// The Sentinel ends the last failover once it gave up on the dead
	// primary's reconfiguration, and sees the replica fit to promote once
	// it has asked it for its INFO.
	err = waitUntil(30*time.Second, func() bool {
		_, err := set.sentinel.Do("SENTINEL", "FAILOVER", "mymaster")
		if err != nil && !strings.HasPrefix(err.Error(), "INPROG") && !strings.HasPrefix(err.Error(), "NOGOODSLAVE") {
			t.Fatal(err)
		}
		return err == nil
	})
	if err != nil {
		t.Fatal("no failover on demand: ", err)
	}
	set.promoted(t, other)
	time.Sleep(recheck)
	if snap, err = after.RecordFirst(ctx, time.Time{}); err != nil || snap.Firsts != 8 {
		t.Fatalf("after a second failover: %+v, %v; want 8 firsts", snap, err)
	}
	if n := firsts(t, other, "sentinel"); n != 8 {
		t.Fatalf("the new primary holds %d firsts, want 8", n)
	}
}

// TestSentinelReadOnly: a primary that refuses writes (READONLY: a
// Sentinel named a replica) sends the store back to the Sentinels, which
// name the primary, and the call goes on there.
func TestSentinelReadOnly(t *testing.T) {
	primary := server(t, redistest.Config{})
	replica, err := redistest.StartReplica(t.TempDir(), primary)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(replica.Stop)
	addr, asked := fakeSentinel(t, replica.Addr(), primary.Addr())
	s := open(t, "redis+sentinel://"+addr+"/mymaster", "ro", Options{})
	snap, err := s.RecordFirst(context.Background(), time.Time{})
	if err != nil || snap.Firsts != 1 {
		t.Fatalf("%+v, %v; want 1 first", snap, err)
	}
	if asked.Load() != 2 {
		t.Fatalf("the Sentinel was asked %d times, want 2", asked.Load())
	}
	if n := firsts(t, primary, "ro"); n != 1 {
		t.Fatalf("the primary holds %d firsts, want 1", n)
	}
}

// fakeSentinel is a Sentinel that names each of answers as the primary in
// turn, and the last one from then on. It answers every other command
// with an error.
func fakeSentinel(t *testing.T, answers ...string) (string, *atomic.Int64) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var asked atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					cmd, err := readCommand(r)
					if err != nil {
						return
					}
					if len(cmd) != 3 || !strings.EqualFold(cmd[0], "SENTINEL") {
						io.WriteString(c, "-ERR unknown command\r\n")
						continue
					}
					a := answers[min(int(asked.Add(1))-1, len(answers)-1)]
					host, port, _ := net.SplitHostPort(a)
					fmt.Fprintf(c, "*2\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n", len(host), host, len(port), port)
				}
			}()
		}
	}()
	return ln.Addr().String(), &asked
}

// readCommand reads one command: an array of bulk strings.
func readCommand(r *bufio.Reader) ([]string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "*")))
	if err != nil {
		return nil, err
	}
	cmd := make([]string, n)
	for i := range cmd {
		if _, err := r.ReadString('\n'); err != nil {
			return nil, err
		}
		arg, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		cmd[i] = strings.TrimSuffix(arg, "\r\n")
	}
	return cmd, nil
}

// TestSentinelNone: with no primary known, a call fails within its bound
// with a StoreError that says why and never shows the password.
func TestSentinelNone(t *testing.T) {
	t.Parallel()
	set := startSentinelSet(t, "")
	ctx := context.Background()
	_, err := open(t, strings.Replace(set.url(t, "none-secret"), "/mymaster", "/othermaster", 1), "s", Options{}).RecordFirst(ctx, time.Time{})
	checkStoreError(t, "an unknown master", err, `knows no master named "othermaster"`)
	if !strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("%q does not say the first Sentinel was not there", err)
	}
	set.primary.Stop()
	for _, r := range set.replicas {
		r.Stop()
	}
	start := time.Now()
	_, err = open(t, set.url(t, "none-secret"), "s", Options{}).RecordFirst(ctx, time.Time{})
	checkStoreError(t, "primary and replica gone", err, "no primary of \"mymaster\" known")
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("took %v", took)
	}
}

func waitUntil(limit time.Duration, ok func() bool) error {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return nil
		}
	}
	return errors.New("timed out")
}
