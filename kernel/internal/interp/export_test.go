package interp

import "reflect"

// Eval evaluates src in s's interpreter as written, by yaegi alone: for
// BenchmarkMarks, which compares it with what the session runs.
func Eval(s *Session, src string) (reflect.Value, error) { return s.in.Eval(src) }
