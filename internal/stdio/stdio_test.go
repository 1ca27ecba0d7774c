package stdio

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"
	"time"
)

func TestParseModes(t *testing.T) {
	for _, tc := range []struct {
		in      string
		stdin   StdinMode
		stdinOK bool
	}{
		{"replay", StdinReplay, true},
		{"inherit", StdinInherit, true},
		{"null", StdinNull, true},
		{"Replay", 0, false},
		{"", 0, false},
	} {
		got, err := ParseStdinMode(tc.in)
		if (err == nil) != tc.stdinOK || got != tc.stdin {
			t.Errorf("ParseStdinMode(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.stdin, tc.stdinOK)
		}
		if err == nil && got.String() != tc.in {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tc.in)
		}
	}
	_, err := ParseStdinMode("pipe")
	if want := `must be one of replay, inherit or null, got "pipe"`; err == nil || err.Error() != want {
		t.Errorf("ParseStdinMode(pipe) error = %v, want %s", err, want)
	}
	for _, tc := range []struct {
		in   string
		want OutputMode
		ok   bool
	}{
		{"stream", OutputStream, true},
		{"final", OutputFinal, true},
		{"last", 0, false},
	} {
		got, err := ParseOutputMode(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseOutputMode(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// payload returns n reproducible bytes that are unlikely to line up by
// chance at a wrong offset.
func payload(n int) []byte {
	r := rand.New(rand.NewPCG(1, uint64(n)))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// producer returns a pipe whose write end the test controls.
func producer(t *testing.T) (r, w *os.File) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close(); w.Close() })
	return r, w
}

// within fails the test if f does not return within d.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

func open(t *testing.T, cfg Config) *Streams {
	t.Helper()
	if cfg.TempDir == "" {
		cfg.TempDir = t.TempDir()
	}
	s, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func begin(t *testing.T, s *Streams) IO {
	t.Helper()
	a, err := s.Begin()
	if err != nil {
		t.Fatal(err)
	}
	// A spooled stdin is a pipe this process can time out on: a test
	// that waits for bytes retry never gives fails instead of hanging.
	a.Stdin.SetReadDeadline(time.Now().Add(10 * time.Second))
	return a
}

func end(t *testing.T, s *Streams) {
	t.Helper()
	within(t, 5*time.Second, "End", func() {
		if err := s.End(); err != nil {
			t.Error(err)
		}
	})
}

func TestReplayPipeEveryAttemptFromTheStart(t *testing.T) {
	data := payload(1<<20 + 3)
	r, w := producer(t)
	go func() { w.Write(data); w.Close() }()
	s := open(t, Config{Stdin: r})

	// Attempts that stop reading early, in the middle of a chunk, beyond
	// what earlier attempts read, and to the end.
	for i, n := range []int{0, 100, 70000, 5, len(data), 40000, len(data)} {
		a := begin(t, s)
		got := make([]byte, n)
		if _, err := io.ReadFull(a.Stdin, got); err != nil {
			t.Fatalf("attempt %d: read %d bytes: %v", i+1, n, err)
		}
		if !bytes.Equal(got, data[:n]) {
			t.Fatalf("attempt %d: the first %d bytes differ from the input", i+1, n)
		}
		if n == len(data) {
			if m, err := a.Stdin.Read(make([]byte, 1)); m != 0 || err != io.EOF {
				t.Fatalf("attempt %d: after the input: %d bytes, %v; want end of file", i+1, m, err)
			}
		}
		end(t, s)
	}
}

func TestReplayPipeStreamsAndNeverWaitsForTheEnd(t *testing.T) {
	r, w := producer(t)
	s := open(t, Config{Stdin: r})

	// The first attempt gets what the producer wrote while the producer
	// still writes; its end does not wait for the producer's end.
	w.Write([]byte("first\n"))
	a := begin(t, s)
	got := make([]byte, 6)
	within(t, 5*time.Second, "reading the first line", func() { io.ReadFull(a.Stdin, got) })
	if string(got) != "first\n" {
		t.Fatalf("attempt 1 read %q, want %q", got, "first\n")
	}
	end(t, s)

	// The next attempt replays it, then goes on with the rest.
	a = begin(t, s)
	w.Write([]byte("second\n"))
	w.Close()
	var all []byte
	within(t, 5*time.Second, "reading to the end", func() { all, _ = io.ReadAll(a.Stdin) })
	if string(all) != "first\nsecond\n" {
		t.Fatalf("attempt 2 read %q, want %q", all, "first\nsecond\n")
	}
	end(t, s)
	within(t, 5*time.Second, "Close", func() { s.Close() })
}

func TestReplayPipeReadsAtMost64KiBAhead(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the pipe buffer is sized on Linux only")
	}
	if ReadAhead > 64<<10 {
		t.Fatalf("ReadAhead = %d, more than the 64 KiB the spec allows", ReadAhead)
	}
	data := payload(4 << 20)
	r, w := producer(t)
	go func() { w.Write(data); w.Close() }()
	s := open(t, Config{Stdin: r})
	sp := s.in.(*spool)

	for _, consumed := range []int{0, 1, 100000, 300000} {
		a := begin(t, s)
		io.ReadFull(a.Stdin, make([]byte, consumed))
		time.Sleep(50 * time.Millisecond) // let retry read ahead if it would
		sp.mu.Lock()
		size := sp.size
		sp.mu.Unlock()
		if size > int64(consumed)+ReadAhead {
			t.Errorf("attempt consumed %d bytes, retry read %d: %d ahead, more than %d", consumed, size, size-int64(consumed), ReadAhead)
		}
		end(t, s)
	}
}

func TestReplayPipeBoundedMemory(t *testing.T) {
	const n = 64 << 20
	r, w := producer(t)
	go func() {
		chunk := payload(1 << 20)
		for range n / len(chunk) {
			w.Write(chunk)
		}
		w.Close()
	}()
	s := open(t, Config{Stdin: r})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 2 {
		a := begin(t, s)
		got, err := io.Copy(io.Discard, a.Stdin)
		if err != nil || got != n {
			t.Fatalf("read %d bytes, %v; want %d", got, err, n)
		}
		end(t, s)
	}
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("replaying %d MiB twice allocated %d bytes", n>>20, alloc)
	}
}

func TestReplayPipeToProcesses(t *testing.T) {
	data := payload(300000)
	r, w := producer(t)
	go func() { w.Write(data); w.Close() }()
	s := open(t, Config{Stdin: r})
	for i, tc := range []struct {
		name  string
		steps []string
		want  []byte
	}{
		{"head", []string{"head", "1000"}, data[:1000]}, // stops reading early
		{"true", nil, nil}, // never reads
		{"cat", []string{"cat"}, data},
		{"cat", []string{"cat"}, data},
	} {
		a := begin(t, s)
		var out bytes.Buffer
		cmd := command(tc.steps...)
		cmd.Stdin, cmd.Stdout = a.Stdin, &out
		within(t, 10*time.Second, tc.name, func() {
			if err := cmd.Run(); err != nil {
				t.Errorf("attempt %d: %v", i+1, err)
			}
		})
		end(t, s)
		if !bytes.Equal(out.Bytes(), tc.want) {
			t.Errorf("attempt %d (%s): wrote %d bytes, want the input's first %d", i+1, tc.name, out.Len(), len(tc.want))
		}
	}
}

func TestReplayRegularFileFromWhereItWasFound(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	f.WriteString("skip:HELLO")
	f.Seek(5, io.SeekStart)
	dir := t.TempDir()
	s := open(t, Config{Stdin: f, TempDir: dir})
	for i, n := range []int{2, 0, 5, 3} {
		a := begin(t, s)
		if a.Stdin != f {
			t.Fatalf("attempt %d got a copy of stdin, want the file itself", i+1)
		}
		got := make([]byte, n)
		io.ReadFull(a.Stdin, got)
		if string(got) != "HELLO"[:n] {
			t.Fatalf("attempt %d read %q, want %q", i+1, got, "HELLO"[:n])
		}
		end(t, s)
	}
	// The offset is where the last attempt left it, as without retry.
	if off, _ := f.Seek(0, io.SeekCurrent); off != 8 {
		t.Errorf("after the attempts the offset is %d, want 8", off)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a regular file needs no spool, found %v", entries)
	}
}

func TestReplayNullDeviceNeedsNoSpool(t *testing.T) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	s := open(t, Config{Stdin: null})
	if _, ok := s.in.(inheritInput); !ok {
		t.Errorf("replaying the null device uses a %T; want none of the spool's work", s.in)
	}
	a := begin(t, s)
	if a.Stdin != null {
		t.Errorf("the attempt got %v; want the null device itself", a.Stdin.Name())
	}
}

func TestInheritAndNull(t *testing.T) {
	r, w := producer(t)
	go func() { w.Write([]byte("abcdef")); w.Close() }()

	s := open(t, Config{Stdin: r, StdinMode: StdinInherit})
	for _, want := range []string{"abc", "def"} {
		a := begin(t, s)
		got := make([]byte, 3)
		io.ReadFull(a.Stdin, got)
		if string(got) != want {
			t.Errorf("inherit: read %q, want %q (what the attempt before consumed is gone)", got, want)
		}
		end(t, s)
	}

	for _, cfg := range []Config{{Stdin: r, StdinMode: StdinNull}, {Stdin: nil}} {
		s := open(t, cfg)
		for range 2 {
			a := begin(t, s)
			if b, err := io.ReadAll(a.Stdin); len(b) != 0 || err != nil {
				t.Errorf("null: read %q, %v; want nothing", b, err)
			}
			end(t, s)
			if err := a.Stdin.Close(); err == nil {
				t.Errorf("null: the attempt's null device was left open")
			}
		}
	}
}

func TestTemporaryFilesArePrivateAndRemoved(t *testing.T) {
	dir := t.TempDir()
	r, w := producer(t)
	w.Write([]byte("x"))
	defer w.Close() // the input never ends: Close must not wait for it
	var dst bytes.Buffer
	s, err := Open(Config{Stdin: r, Stdout: &dst, StdoutMode: OutputFinal, TempDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		a := begin(t, s)
		fi, err := s.out.(*finalOutput).cur.file.(*tempFile).Stat()
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); runtime.GOOS != "windows" && perm != 0o600 {
			t.Errorf("the held stdout has mode %v, want 0600", perm)
		}
		if sp := s.in.(*spool); runtime.GOOS != "windows" {
			if fi, _ := sp.file.(*tempFile).Stat(); fi.Mode().Perm() != 0o600 {
				t.Errorf("the spool has mode %v, want 0600", fi.Mode().Perm())
			}
		}
		io.ReadFull(a.Stdin, make([]byte, 1))
		if entries, _ := os.ReadDir(dir); runtime.GOOS != "windows" && len(entries) != 0 {
			t.Errorf("while an attempt runs, the temporary directory holds %v; want the files unlinked", entries)
		}
		end(t, s)
	}
	within(t, 5*time.Second, "Close", func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("after Close the temporary directory holds %v", entries)
	}
}

func TestOpenFailsWhenTheSpoolCannotBeCreated(t *testing.T) {
	r, _ := producer(t)
	_, err := Open(Config{Stdin: r, TempDir: "/nonexistent/retry-test"})
	if err == nil {
		t.Fatal("Open succeeded without a place for the spool")
	}
}

func TestBeginTwiceWithoutEnd(t *testing.T) {
	s := open(t, Config{})
	begin(t, s)
	if _, err := s.Begin(); err == nil {
		t.Error("a second Begin without End succeeded")
	}
}
