package main

import (
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// root is the repository's root, seen from this package's directory.
const root = "../.."

// docPages returns README.md and every Markdown file under docs/, as
// slash-separated paths from the repository's root.
func docPages(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md"}
	err := fs.WalkDir(os.DirFS(root), "docs", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			pages = append(pages, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

var (
	fence      = regexp.MustCompile("^\\s*(```|~~~)")
	codeSpan   = regexp.MustCompile("`+[^`]*`+")
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	refLink    = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)`)
	heading    = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
	htmlAnchor = regexp.MustCompile(`<a\s+(?:name|id)="([^"]+)"`)
	scheme     = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// prose returns the lines of a Markdown page outside fenced code blocks
// and indented code (four spaces or a tab after a blank line), with
// inline code spans blanked out: what a reader sees as text and links.
func prose(page string) []string {
	var out []string
	inFence, blank, inIndent := false, true, false
	for line := range strings.SplitSeq(page, "\n") {
		if fence.MatchString(line) {
			inFence = !inFence
			out = append(out, "")
			continue
		}
		indented := strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")
		if strings.TrimSpace(line) == "" {
			inIndent = false
		} else if indented && (blank || inIndent) && !inFence {
			inIndent = true
		}
		blank = strings.TrimSpace(line) == ""
		if inFence || inIndent {
			out = append(out, "")
			continue
		}
		out = append(out, codeSpan.ReplaceAllStringFunc(line, func(s string) string {
			return strings.Repeat(" ", len(s))
		}))
	}
	return out
}

// anchors returns the anchors of a page's headings, as GitHub makes them
// (lower case, punctuation dropped, spaces as hyphens, a repeated heading
// suffixed -1, -2, ...), and those of its <a name> and <a id> tags.
func anchors(page string) map[string]bool {
	seen := map[string]int{}
	set := map[string]bool{}
	inFence := false
	for line := range strings.SplitSeq(page, "\n") {
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			set[m[1]] = true
		}
		m := heading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		slug := slugify(m[1])
		if n := seen[slug]; n > 0 {
			set[slug+"-"+strconv.Itoa(n)] = true
		} else {
			set[slug] = true
		}
		seen[slug]++
	}
	return set
}

var mdLinkText = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)

// slugify turns a heading's text into its anchor as GitHub does.
func slugify(text string) string {
	text = mdLinkText.ReplaceAllString(text, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// repoURL is the web address of the repository's files. A page that the
// release archives ship links to a page that they do not, such as the
// developers' pages under docs/dev, by this address and its path, which
// resolves in the repository and in an unpacked archive alike.
const repoURL = "https://github.com/b0a38808/retry/blob/main/"

// docLink is a link of a page to a file of the repository: a relative
// link, or one by repoURL (absolute set).
type docLink struct {
	line     int    // from 1
	target   string // as written
	dest     string // the file, a slash-separated path from the root; the page itself for "#anchor"
	frag     string // the anchor, or ""
	absolute bool
}

// pageLinks returns the links of page, a path from the root, to the
// repository's files, and reports the links that cannot name one.
func pageLinks(t *testing.T, page string) []docLink {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
	if err != nil {
		t.Fatal(err)
	}
	var links []docLink
	for n, line := range prose(string(b)) {
		var targets []string
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			targets = append(targets, m[1])
		}
		if m := refLink.FindStringSubmatch(line); m != nil {
			targets = append(targets, m[1])
		}
		for _, target := range targets {
			l := docLink{line: n + 1, target: target, dest: page}
			file, frag, _ := strings.Cut(target, "#")
			l.frag = frag
			switch {
			case target == "":
				continue
			case strings.HasPrefix(target, repoURL):
				l.absolute = true
				l.dest = path.Clean(strings.TrimPrefix(file, repoURL))
			case scheme.MatchString(target):
				continue
			case strings.HasPrefix(file, "/"):
				t.Errorf("%s:%d: %s: an absolute path does not resolve on every viewer; make it relative", page, l.line, target)
				continue
			case file != "":
				l.dest = path.Clean(path.Join(path.Dir(page), file))
			}
			if l.dest == ".." || strings.HasPrefix(l.dest, "../") {
				t.Errorf("%s:%d: %s points outside the repository", page, l.line, target)
				continue
			}
			links = append(links, l)
		}
	}
	return links
}

// TestDocLinksResolve fails when a link in README.md or a page under
// docs/, relative or by repoURL, names a file that the repository does
// not hold, or a heading anchor that the page it names does not have.
func TestDocLinksResolve(t *testing.T) {
	cache := map[string]map[string]bool{}
	anchorsOf := func(p string) (map[string]bool, error) {
		if a, ok := cache[p]; ok {
			return a, nil
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		cache[p] = anchors(string(b))
		return cache[p], nil
	}
	links := 0
	for _, page := range docPages(t) {
		for _, l := range pageLinks(t, page) {
			links++
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(l.dest))); err != nil {
				t.Errorf("%s:%d: %s: no such file or directory %s", page, l.line, l.target, l.dest)
				continue
			}
			if l.frag == "" {
				continue
			}
			if !strings.HasSuffix(l.dest, ".md") {
				t.Errorf("%s:%d: %s: an anchor into %s, which is not a Markdown page", page, l.line, l.target, l.dest)
				continue
			}
			a, err := anchorsOf(l.dest)
			if err != nil {
				t.Errorf("%s:%d: %s: %v", page, l.line, l.target, err)
				continue
			}
			if !a[l.frag] {
				t.Errorf("%s:%d: %s: %s has no heading with anchor #%s", page, l.line, l.target, l.dest, l.frag)
			}
		}
	}
	if links == 0 {
		t.Fatal("found no relative link at all: the link parser is broken")
	}
}

// archiveFiles returns the patterns of the files that .goreleaser.yaml's
// archives ship, besides the binary.
func archiveFiles(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Archives []struct {
			Files []string `yaml:"files"`
		} `yaml:"archives"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, a := range cfg.Archives {
		files = append(files, a.Files...)
	}
	if len(files) == 0 {
		t.Fatal(".goreleaser.yaml: no archive ships any file")
	}
	return files
}

// shipped reports whether file, a path from the root, matches one of
// the archives' patterns.
func shipped(patterns []string, file string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool {
		ok, err := path.Match(p, file)
		return err == nil && ok
	})
}

// TestShippedDocsLinkWhatShips fails when a page that the release
// archives ship links relatively to a file that they do not: in an
// unpacked archive the link would lead nowhere. Such a link goes by
// repoURL instead.
func TestShippedDocsLinkWhatShips(t *testing.T) {
	patterns := archiveFiles(t)
	pages := 0
	for _, page := range docPages(t) {
		if !shipped(patterns, page) {
			continue
		}
		pages++
		for _, l := range pageLinks(t, page) {
			if !l.absolute && !shipped(patterns, l.dest) {
				t.Errorf("%s:%d: %s: the release archives do not ship %s: ship it, or link to %s%s", page, l.line, l.target, l.dest, repoURL, l.dest)
			}
		}
	}
	if pages == 0 {
		t.Fatal("the archives ship no page of the docs: the patterns are not read right")
	}
}

// TestDocsStandAlone fails when a page cites a document that the
// repository does not hold, or tells the story of its own making, which
// belongs in commit messages.
func TestDocsStandAlone(t *testing.T) {
	outside := regexp.MustCompile(`\b(SPEC|DEVELOPERS)\.md\b`)
	story := regexp.MustCompile(`(?i)\b(this|the) round\b|\bthis branch\b|\bthe issue\b`)
	for _, page := range docPages(t) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(page)))
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(b), "\n") {
			for _, re := range []*regexp.Regexp{outside, story} {
				if m := re.FindString(line); m != "" {
					t.Errorf("%s:%d: %q: the docs stand on their own and say what is, not how it came to be", page, n+1, m)
				}
			}
		}
	}
}

// TestSlugify pins the anchors the link test expects to GitHub's rules.
func TestSlugify(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Reading output", "reading-output"},
		{"Held output: `--stdout final`", "held-output---stdout-final"},
		{"What each attempt reads: --stdin", "what-each-attempt-reads---stdin"},
		{"Stdout and stderr in one place (retry ... >log 2>&1)", "stdout-and-stderr-in-one-place-retry--log-21"},
		{"Recipes: CI steps, cron jobs, deploys", "recipes-ci-steps-cron-jobs-deploys"},
		{"[git](x.md) and snake_case", "git-and-snake_case"},
	} {
		if got := slugify(c.in); got != c.want {
			t.Errorf("slugify(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	got := slices.Sorted(maps.Keys(anchors("# A\n## B\n```\n## C\n```\n## B\n")))
	if want := []string{"a", "b", "b-1"}; !slices.Equal(got, want) {
		t.Errorf("anchors = %v, want %v", got, want)
	}
}
