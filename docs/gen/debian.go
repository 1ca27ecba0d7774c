package main

import (
	"strings"
)

// debianRow is one flag or behaviour of Debian's retry (minfrin's, whose
// package retry-cmd replaces), what it does there, and what to write
// here. The text is Markdown: `code` spans become bold in the man page.
type debianRow struct {
	theirs, there, here string
}

// debianRows are retry(1)'s section for users of Debian's retry, and the
// README's table, which a test holds to them.
var debianRows = []debianRow{
	{"`retry COMMAND`", "tries forever, 10 seconds apart", "3 attempts, waits doubling from 1s up to 30s, drawn at random; forever: `-a 0 -d DUR` (unlimited attempts need a deadline)"},
	{"`-t N`, `--times N`", "N tries", "`-a N`; `-t DUR` bounds each attempt"},
	{"`-t -1`", "tries without end", "`-a 0 -d DUR`"},
	{"`-d N`, `--delay N`", "N seconds between tries", "`--delay Ns`, the first wait, which doubles; `--delay Ns --max-delay Ns --jitter none` waits exactly N seconds each time; `-d DUR` is the deadline of the whole run"},
	{"`-d 1,2,4`", "waits of 1 and 2 seconds, then of 4 seconds after every later try", "`--delay 1s --max-delay 4s --jitter none`; a list that does not double comes closest as `--delay FIRSTs --max-delay LASTs`"},
	{"`-j N`, `--jitter N`", "adds up to N seconds at random to each wait", "`--jitter full`, the default: each wait is drawn at random"},
	{"`-u fail`, `--until fail`", "runs the command again until it fails", "`--until fail`"},
	{"`-u CODES`", "runs it again until it exits with one of CODES", "`--stop-on CODES` (a success ends the run too)"},
	{"`-w CODES`, `--while CODES`", "runs it again while it exits with one of CODES", "`--retry-on CODES`"},
	{"`-w success`", "runs it again while it succeeds", "`--until fail`"},
	{"`-m TEXT`, `--message TEXT`", "names the command in its lines", "`--name NAME`, in the summary, the report, the metrics and CI annotations"},
	{"a failed try's stdout", "goes to stderr; only the last try's goes to stdout", "`--stdout final`: only the last attempt's stdout is written, to stdout; a failed one's is dropped"},
	{"a death by a signal", "ends the run, exit 128+N", "retried as ambiguous; `--on-ambiguous stop` ends the run at one"},
	{"bad options; a command that cannot start", "exit 1", "exit 125, nothing run; exit 126 or 127"},
}

// debianMarkdown renders the rows as the README's table.
func debianMarkdown() string {
	var b strings.Builder
	b.WriteString("| Debian's `retry` | does there | write here |\n|---|---|---|\n")
	for _, r := range debianRows {
		b.WriteString("| " + r.theirs + " | " + r.there + " | " + r.here + " |\n")
	}
	return b.String()
}

// manDebian is retry(1)'s section for users of Debian's retry.
func manDebian() string {
	var b strings.Builder
	b.WriteString(`.SH COMING FROM DEBIAN'S RETRY
The retry\-cmd package, this retry's .deb and .rpm, replaces Debian's
retry package (minfrin's): both install /usr/bin/retry and retry(1), so
installing one removes the other. Some of its flags are spelled alike and
mean other things here. A number without a unit is bad input here (exit
125, the command is not run), so that \fB\-t 3 \-d 1\fP, 3 tries 1 second
apart there, is refused with a hint that says what to write, rather than
read as a timeout of 3 seconds and a deadline of 1.
`)
	for _, r := range debianRows {
		b.WriteString(".TP\n" + roffSpans(r.theirs) + "\n" + roffSpans(r.there) + ".\nHere: " + roffSpans(r.here) + ".\n")
	}
	b.WriteString("\n")
	return b.String()
}

// roffSpans escapes Markdown text for the man page, its `code` spans made
// bold.
func roffSpans(s string) string {
	parts := strings.Split(s, "`")
	for i, p := range parts {
		parts[i] = roff(p)
		if i%2 == 1 {
			parts[i] = `\fB` + parts[i] + `\fP`
		}
	}
	out := strings.Join(parts, "")
	if strings.HasPrefix(out, ".") || strings.HasPrefix(out, "'") {
		out = `\&` + out // not a request
	}
	return out
}
