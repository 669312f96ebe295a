package tensor

// PoisonUnfilled sets poisonUnfilled: TestMain sets it for the tests, so
// that every test of an op whose result is allocated unfilled also checks
// that the op writes every slot of it, and leaves it unset for benchmarks,
// which time what a user gets.
func PoisonUnfilled(on bool) { poisonUnfilled = on }
