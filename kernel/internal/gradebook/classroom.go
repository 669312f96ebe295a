package gradebook

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/tensornb/tensornb/kernel/internal/grade"
)

// Classroom writes what a GitHub Classroom autograding step shows of a
// submission in its log: a line a test, its points and the first line of
// its feedback, then the score as "Points SCORE/MAX"; and reports
// whether the submission has full marks, which the step turns into its
// exit status. GitHub's command grader scores a step by that status
// alone: its points, or none.
func Classroom(w io.Writer, r grade.Result) (full bool, err error) {
	return classroom(w, r, r.Tests, r.Score, r.MaxScore)
}

// ClassroomTest is Classroom for a step that is one test cell's, so that a
// workflow of a step a test (see Workflow) gives partial credit: the
// test's line, its points, and whether it has them all.
func ClassroomTest(w io.Writer, r grade.Result, test TestCell) (full bool, err error) {
	for _, t := range r.Tests {
		if t.GradeID == test.GradeID {
			return classroom(w, r, []grade.Test{t}, t.Points, t.MaxPoints)
		}
	}
	if r.Error == "" {
		r.Error = "the submission has no test cell " + test.GradeID
	}
	return classroom(w, r, nil, 0, test.Points)
}

func classroom(w io.Writer, r grade.Result, tests []grade.Test, score, max float64) (full bool, err error) {
	if r.Error != "" {
		_, err := fmt.Fprintf(w, "not graded: %s\nPoints 0/%s\n", r.Error, number(max))
		return false, err
	}
	for _, t := range tests {
		verdict := "passed"
		if t.Feedback != "" {
			verdict, _, _ = strings.Cut(t.Feedback, "\n")
		}
		if _, err := fmt.Fprintf(w, "%s: %s/%s %s\n", t.GradeID, number(t.Points), number(t.MaxPoints), verdict); err != nil {
			return false, err
		}
	}
	_, err = fmt.Fprintf(w, "Points %s/%s\n", number(score), number(max))
	return score >= max, err
}

// A TestCell is a test cell of the teacher's notebook as a Classroom step
// grades it: its grade_id and its points.
type TestCell struct {
	GradeID string
	Points  float64
}

// stepID makes a grade_id a step's id, which GitHub allows letters,
// digits, - and _ in, starting with a letter or _.
var notInStepID = regexp.MustCompile(`[^A-Za-z0-9_-]`)

// Workflow writes a GitHub Classroom autograding workflow for an
// exercise: Go, libzmq and tensornb installed, then a step a test cell,
// each grading the student's notebook at submission against the
// teacher's at source with -classroom -test, worth the cell's points, so
// that Classroom gives partial credit a test at a time; then the step
// that reports the points to Classroom.
func Workflow(w io.Writer, source, submission string, tests []TestCell) error {
	var b strings.Builder
	fmt.Fprintf(&b, workflowHead, source)
	ids := make([]string, len(tests))
	for i, t := range tests {
		ids[i] = notInStepID.ReplaceAllString(t.GradeID, "_")
		if c := ids[i][0]; c >= '0' && c <= '9' || c == '-' {
			ids[i] = "_" + ids[i]
		}
		command := fmt.Sprintf("$HOME/.local/bin/tensornb grade -image none -classroom -test %s %s %s", shellQuote(t.GradeID), shellQuote(source), shellQuote(submission))
		fmt.Fprintf(&b, workflowStep, ids[i], strconv.Quote(t.GradeID), strconv.Quote(command), number(t.Points))
	}
	b.WriteString("      - uses: classroom-resources/autograding-grading-reporter@v1\n        env:\n")
	for _, id := range ids {
		fmt.Fprintf(&b, "          %s_RESULTS: \"${{ steps.%s.outputs.result }}\"\n", strings.ToUpper(id), id)
	}
	fmt.Fprintf(&b, "        with:\n          runners: %s\n", strings.Join(ids, ","))
	_, err := io.WriteString(w, b.String())
	return err
}

// shellQuote quotes a path for the shell, where it needs quoting.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./", r)
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// workflowHead is the workflow up to the tests' steps; %s is the
// teacher's notebook, named in a comment.
const workflowHead = `# GitHub Classroom autograding for %s, written by tensornb grade
# -classroom-workflow: a step a test cell, each worth the cell's points.
name: Autograding
on: [push]
permissions:
  checks: write
  actions: read
  contents: read
jobs:
  grade:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-go@v5
        with:
          go-version: "1.26"
      - name: Install tensornb
        run: |
          sudo apt-get update -q && sudo apt-get install -y -q libzmq3-dev
          git clone --depth 1 https://github.com/tensornb/tensornb /tmp/tensornb
          /tmp/tensornb/scripts/install -prefix "$HOME/.local"
`

// workflowStep is a test's step: its id, its name and its command (as
// YAML's double-quoted strings, which Go's quoted strings are), and its
// points.
const workflowStep = `      - id: %s
        uses: classroom-resources/autograding-command-grader@v1
        with:
          test-name: %s
          command: %s
          max-score: %s
`
