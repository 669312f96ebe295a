// Package complete answers a notebook's completion and inspection
// requests for the instant engine: the checker type-checks the cell, cut
// at the cursor, against the session as it checks a cell before it runs
// (check.Checker.At), and the answer comes from go/types: the members of
// the type or package before a dot, or the names in scope at the cursor.
// Doc comments, which export data does not carry, come from the
// packages' source, or in a browser from an index of them (Docs).
package complete
