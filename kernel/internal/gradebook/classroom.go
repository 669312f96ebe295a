package gradebook

import (
	"fmt"
	"io"
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
	if r.Error != "" {
		_, err := fmt.Fprintf(w, "not graded: %s\nPoints 0/%s\n", r.Error, number(r.MaxScore))
		return false, err
	}
	for _, t := range r.Tests {
		verdict := "passed"
		if t.Feedback != "" {
			verdict, _, _ = strings.Cut(t.Feedback, "\n")
		}
		if _, err := fmt.Fprintf(w, "%s: %s/%s %s\n", t.GradeID, number(t.Points), number(t.MaxPoints), verdict); err != nil {
			return false, err
		}
	}
	_, err = fmt.Fprintf(w, "Points %s/%s\n", number(r.Score), number(r.MaxScore))
	return r.Score >= r.MaxScore, err
}
