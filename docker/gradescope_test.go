package docker

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// gradescopeImage is the autograder's image the test builds from the
// bundle, as Gradescope builds one.
const gradescopeImage = "localhost/tensornb:gradescope-test"

// gradescopeContainerfile builds an autograder's image as Gradescope
// does: the bundle unpacked in /autograder/source, run_autograder copied
// to /autograder, setup.sh run as root. Behind a proxy that signs TLS
// with its own authority, setup.sh's curl and go trust this machine's
// authorities, mounted for the build only (a Gradescope build has no
// such proxy).
const gradescopeContainerfile = `FROM %s
COPY autograder /autograder/source
RUN cp /autograder/source/run_autograder /autograder/run_autograder && chmod +x /autograder/run_autograder
RUN if [ -f /run/host-ca.crt ]; then export SSL_CERT_FILE=/run/host-ca.crt CURL_CA_BUNDLE=/run/host-ca.crt; fi; bash /autograder/source/setup.sh
`

// TestGradescopeBundle runs TestImage's Gradescope part alone, which
// needs podman and root but not the image: TestImage runs it in CI. Run it
// by hand, as root, with
//
//	TENSORNB_GRADESCOPE_TEST=1 go test -run TestGradescopeBundle -v -timeout 20m
//
// in docker/.
func TestGradescopeBundle(t *testing.T) {
	if os.Getenv("TENSORNB_GRADESCOPE_TEST") != "1" {
		t.Skip("TestImage runs the Gradescope bundle's test; set TENSORNB_GRADESCOPE_TEST=1 to run it alone")
	}
	it := partTest(t)
	it.testGradescope(t)
	t.Log(it.sum.gradescope)
}

// testGradescope makes the puzzles' autograder bundle with
// scripts/gradescope-bundle, from the teacher's notebook with two test
// cells' visibility set in their nbgrader metadata, builds an image of
// it as Gradescope does (buildGradescope), on Debian 12 standing in for Gradescope's
// Ubuntu base (no registry can be reached here), and runs run_autograder
// in it as Gradescope runs a submission, with no network: the teacher's
// notebook scores 25 of 25, the student's version handed in under
// another name 0 with "panic: not written yet" in every test's output,
// and a submission with no notebook 0 with what was missing. Each
// results.json holds only the fields Gradescope documents, of their
// types, and each test's visibility is its cell's.
func (it *imageTest) testGradescope(t *testing.T) {
	dir := filepath.Join(it.dir, "gradescope-"+randomToken()[:8])
	fail := func(problem, todo string) {
		t.Helper()
		it.fail(t, &failure{step: "gradescope", problem: problem, todo: todo})
	}
	teacher, built := it.buildGradescope(t, dir)
	defer it.pm.run(it.ctx, "rmi", "--force", gradescopeImage)

	student := filepath.Join(dir, "student.ipynb")
	bin := filepath.Join(dir, "tensornb")
	build := exec.CommandContext(it.ctx, "go", "build", "-o", bin, "./kernel/cmd/tensornb")
	build.Dir = it.root
	if out, err := build.CombinedOutput(); err != nil {
		fail(fmt.Sprintf("go build ./kernel/cmd/tensornb: %v\n%s", err, out), "")
	}
	if out, err := exec.CommandContext(it.ctx, bin, "assign", teacher, student).CombinedOutput(); err != nil {
		fail(fmt.Sprintf("tensornb assign: %v\n%s", err, out), "")
	}
	for _, run := range []struct {
		name   string
		handIn map[string]string // the submission's files: name → the notebook copied there
		check  func(r gradescopeResults) error
	}{
		{"the teacher's notebook", map[string]string{"puzzles.ipynb": teacher}, func(r gradescopeResults) error {
			return r.scored(25, 25, "")
		}},
		{"the student's version under another name", map[string]string{"my puzzles.ipynb": student, "notes.txt": teacher}, func(r gradescopeResults) error {
			return r.scored(0, 25, "panic: not written yet")
		}},
		{"no notebook", map[string]string{"notes.txt": teacher}, func(r gradescopeResults) error {
			if r.Score != 0 || len(r.Tests) != 0 || !strings.Contains(r.Output, "could not be graded") || !strings.Contains(r.Output, "puzzles.ipynb") {
				return fmt.Errorf("score %g, %d tests, output %q; want 0, none, and that puzzles.ipynb could not be graded", r.Score, len(r.Tests), r.Output)
			}
			return nil
		}},
	} {
		data, err := it.runAutograder(filepath.Join(dir, "run-"+randomToken()[:6]), run.handIn)
		if err != nil {
			fail(fmt.Sprintf("%s: %v", run.name, err), "run_autograder (scripts/gradescope/) must write /autograder/results/results.json")
		}
		r, err := readGradescopeResults(data, bundleVisibility)
		if err == nil {
			err = run.check(r)
		}
		if err != nil {
			fail(fmt.Sprintf("%s: results.json: %v\n%s", run.name, err, data), "see grade's Gradescope export (kernel/cmd/tensornb/course.go)")
		}
	}
	it.mu.Lock()
	it.sum.gradescope = fmt.Sprintf("gradescope bundle built into an image in %s, 3 submissions graded", built.Round(time.Second))
	it.mu.Unlock()
	it.prog.say("gradescope: %s: the teacher 25 of 25, the student's version 0, no notebook 0 with why", it.sum.gradescope)
}

// bundleVisibility is the visibility the test gives two test cells of the
// puzzles' bundle, in their nbgrader metadata.
var bundleVisibility = map[string]string{"diagonal_test": "after_due_date", "hankel_test": "hidden"}

// buildGradescope makes the puzzles' bundle in dir, from the teacher's
// notebook with bundleVisibility, and builds the autograder's image from
// it as Gradescope does; it returns the teacher's notebook and how long
// that took. TestImage -build-only builds it too, while the Go tests run,
// and the full run takes its steps from podman's cache.
func (it *imageTest) buildGradescope(t *testing.T, dir string) (teacher string, took time.Duration) {
	base, err := it.debian()
	if err != nil {
		it.fail(t, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "context"), 0o755); err != nil {
		t.Fatal(err)
	}
	teacher = filepath.Join(dir, "puzzles.ipynb")
	err = editCells(filepath.Join(it.root, "notebooks", "05-stride-puzzles.ipynb"), teacher, func(_, nbgrader map[string]any) bool {
		v, ok := bundleVisibility[fmt.Sprint(nbgrader["grade_id"])]
		if ok {
			nbgrader["visibility"] = v
		}
		return ok
	})
	if err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(dir, "autograder.zip")
	start := time.Now()
	bundling := exec.CommandContext(it.ctx, filepath.Join(it.root, "scripts", "gradescope-bundle"), teacher, bundle)
	if out, err := bundling.CombinedOutput(); err != nil {
		it.fail(t, &failure{step: "gradescope: bundle", command: "scripts/gradescope-bundle " + teacher, problem: err.Error(), log: string(out)})
	}
	if err := unzip(bundle, filepath.Join(dir, "context", "autograder")); err != nil {
		it.fail(t, &failure{step: "gradescope: bundle", problem: fmt.Sprintf("unpacking %s: %v", bundle, err)})
	}
	containerfile := filepath.Join(dir, "Containerfile")
	if err := os.WriteFile(containerfile, fmt.Appendf(nil, gradescopeContainerfile, base), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"build", "--network", "host", "--layers", "--file", containerfile, "--tag", gradescopeImage}
	if ca := "/etc/ssl/certs/ca-certificates.crt"; fileExists(ca) {
		args = append(args, "--volume", ca+":/run/host-ca.crt:ro")
	}
	args = append(args, filepath.Join(dir, "context"))
	it.prog.say("gradescope: the autograder's image, as Gradescope builds it from the bundle: %s", quote("podman", args...))
	if out, err := it.pm.stream(it.ctx, "  gradescope: ", buildNoise, args...); err != nil {
		it.fail(t, &failure{step: "gradescope: setup.sh", command: quote("podman", args...), problem: err.Error(), log: lastLines(out, 30),
			todo: "setup.sh (scripts/gradescope/) says above what failed"})
	}
	return teacher, time.Since(start)
}

// runAutograder runs the autograder's image as Gradescope runs a
// submission: handIn's notebooks in /autograder/submission, with no
// network; it returns results.json.
func (it *imageTest) runAutograder(dir string, handIn map[string]string) ([]byte, error) {
	submission, results := filepath.Join(dir, "submission"), filepath.Join(dir, "results")
	for _, d := range []string{submission, results} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	for name, from := range handIn {
		data, err := os.ReadFile(from)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(submission, name), data, 0o644); err != nil {
			return nil, err
		}
	}
	args := []string{"run", "--rm", "--network", "none",
		"--volume", submission + ":/autograder/submission:ro", "--volume", results + ":/autograder/results",
		gradescopeImage, "/autograder/run_autograder"}
	if out, err := it.pm.run(it.ctx, args...); err != nil {
		return nil, fmt.Errorf("%s: %v\n%s", quote("podman", args...), err, out)
	}
	return os.ReadFile(filepath.Join(results, "results.json"))
}

// gradescopeResults is Gradescope's results.json, as its documentation
// for autograders describes it.
type gradescopeResults struct {
	Score      float64 `json:"score"`
	Output     string  `json:"output"`
	Visibility string  `json:"visibility"`
	Tests      []struct {
		Name       string  `json:"name"`
		Score      float64 `json:"score"`
		MaxScore   float64 `json:"max_score"`
		Output     string  `json:"output"`
		Visibility string  `json:"visibility"`
	} `json:"tests"`
}

// The fields Gradescope documents for results.json and for each test.
var (
	gradescopeFields     = []string{"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format", "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
	gradescopeTestFields = []string{"score", "max_score", "status", "name", "name_format", "number", "output", "output_format", "tags", "visibility", "extra_data"}
	gradescopeVisibility = []string{"", "visible", "hidden", "after_due_date", "after_published"}
)

// readGradescopeResults reads results.json, refusing a field Gradescope
// does not document, a value of another type, a visibility it does not
// know, and a test whose visibility is not the one its cell's metadata
// gives in visibility (visible if unset).
func readGradescopeResults(data []byte, visibility map[string]string) (gradescopeResults, error) {
	var r gradescopeResults
	var fields map[string]json.RawMessage
	var tests struct {
		Tests []map[string]json.RawMessage `json:"tests"`
	}
	if err := json.Unmarshal(data, &fields); err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, &tests); err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("a field of another type than Gradescope's: %v", err)
	}
	if _, ok := fields["score"]; !ok {
		return r, fmt.Errorf("no score")
	}
	for name := range fields {
		if !slices.Contains(gradescopeFields, name) {
			return r, fmt.Errorf("field %q, which Gradescope does not document", name)
		}
	}
	if !slices.Contains(gradescopeVisibility, r.Visibility) {
		return r, fmt.Errorf("visibility %q", r.Visibility)
	}
	for i, test := range tests.Tests {
		for name := range test {
			if !slices.Contains(gradescopeTestFields, name) {
				return r, fmt.Errorf("test %d: field %q, which Gradescope does not document", i, name)
			}
		}
		tr := r.Tests[i]
		want := visibility[tr.Name]
		if want == "" {
			want = "visible"
		}
		if tr.Name == "" || tr.Score < 0 || tr.Score > tr.MaxScore || tr.Visibility != want {
			return r, fmt.Errorf("test %d: name %q, score %g of %g, visibility %q (want %q)", i, tr.Name, tr.Score, tr.MaxScore, tr.Visibility, want)
		}
	}
	return r, nil
}

// scored checks the score and its maximum, and with failure set, that
// every test failed with it in its output.
func (r gradescopeResults) scored(score, max float64, failure string) error {
	sum := 0.0
	for _, test := range r.Tests {
		sum += test.MaxScore
		if failure != "" && (test.Score != 0 || !strings.Contains(test.Output, failure)) {
			return fmt.Errorf("test %s scored %g with output %q; want 0 and %q", test.Name, test.Score, test.Output, failure)
		}
	}
	if r.Score != score || sum != max {
		return fmt.Errorf("score %g of %g; want %g of %g", r.Score, sum, score, max)
	}
	return nil
}

// unzip unpacks a zip into dir, keeping its files' modes (run_autograder
// and setup.sh are executable).
func unzip(path, dir string) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return err
	}
	defer zr.Close()
	for _, f := range zr.File {
		target := filepath.Join(dir, filepath.FromSlash(f.Name))
		if !strings.HasPrefix(target, filepath.Clean(dir)+string(os.PathSeparator)) {
			return fmt.Errorf("%s: %q is outside the bundle", path, f.Name)
		}
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := unzipFile(f, target); err != nil {
			return err
		}
	}
	return nil
}

func unzipFile(f *zip.File, target string) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	r, err := f.Open()
	if err != nil {
		return err
	}
	defer r.Close()
	w, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, f.Mode().Perm()|0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(w, r)
	return errors.Join(err, w.Close())
}

// readGradescopeResults refuses what Gradescope would not read as
// documented, and a visibility other than the test cell's.
func TestReadGradescopeResults(t *testing.T) {
	visibility := map[string]string{"b": "hidden"}
	good := `{"score": 1, "visibility": "visible", "tests": [{"name": "a", "score": 1, "max_score": 1, "output": "", "visibility": "visible"}, {"name": "b", "score": 0, "max_score": 2, "output": "x", "visibility": "hidden"}]}`
	if r, err := readGradescopeResults([]byte(good), visibility); err != nil || r.scored(1, 3, "") != nil {
		t.Fatalf("%s: %v, %v", good, err, r.scored(1, 3, ""))
	}
	for _, bad := range []string{
		`{"visibility": "visible", "tests": []}`,
		`{"score": 1, "points": 1, "tests": []}`,
		`{"score": "1", "tests": []}`,
		`{"score": 1, "visibility": "secret", "tests": []}`,
		`{"score": 1, "tests": [{"name": "a", "score": 1, "max_score": 1, "points": 1}]}`,
		`{"score": 1, "tests": [{"name": "b", "score": 1, "max_score": 1, "visibility": "visible"}]}`,
		`{"score": 1, "tests": [{"name": "a", "score": 2, "max_score": 1}]}`,
		`{"score": 1, "tests": [{"score": 1, "max_score": 1}]}`,
	} {
		if _, err := readGradescopeResults([]byte(bad), visibility); err == nil {
			t.Errorf("%s: read without an error", bad)
		}
	}
}
