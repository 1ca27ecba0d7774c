package cmd

import "strings"

// example is one example of `retry --help`: what it does, and the
// command.
type example struct{ what, command string }

// helpExamples returns the examples of `retry --help`. They are the
// commands of the README's Examples section, in its order, so that the
// two say the same (TestHelpExamplesAreTheREADMEs).
func helpExamples() []example {
	return []example{
		{"a flaky download: five attempts, at most a minute in all", "retry -a 5 -d 1m -- curl -fsS -o release.tar.gz https://example.com/release.tar.gz"},
		{"a CI step under a deadline, each attempt limited to two minutes", "retry -a 3 -d 10m -t 2m -- make integration-test"},
		{"a cron job that retries for up to an hour and leaves metrics for Prometheus", "retry --name backup -a 0 -d 1h --delay 30s --max-delay 10m --metrics-file /var/lib/prometheus/node-exporter/backup.prom -- /usr/local/bin/backup"},
		{"what a plan will do before it runs, and what a deadline can hold", "retry explain -a 5 --delay 1s --max-delay 4s -d 10s -- make test"},
	}
}

// exampleText renders examples as cobra's Example field: each command
// after a comment line, indented as cobra indents its other sections.
func exampleText(examples []example) string {
	var b strings.Builder
	for i, e := range examples {
		if i > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString("  # " + e.what + "\n  " + e.command)
	}
	return b.String()
}
