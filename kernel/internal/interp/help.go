package interp

// helpPage is what %help shows: the cell language of GoNB as the instant
// engine runs it, and what is tensornb's own.
const helpPage = "## tensornb: the instant engine\n\n" +
	"A cell is Go: declarations, which later cells see, and statements, which run at once; " +
	"a last expression's value is shown. While the cells are declarations alone (with `%%` or not), each runs " +
	"as GoNB runs it, as a new program: the variables start again from their declarations, `func init` runs, " +
	"then the `init_…` functions, then `main`. From the first cell with a statement outside a function on, " +
	"variables keep their values from cell to cell, as in a Python notebook, and `func init` runs once. A line that starts with `%` or `!` (or with `//gonb:%`, `//gonb:!`, " +
	"which Go editors take for a comment) is a command, GoNB's cell language: the commands run first, in order, " +
	"then the Go code, whose lines keep their numbers. A line that ends with `\\` goes on on the next line.\n\n" +
	"### Running a program\n\n" +
	"- `%%` or `%main`, with arguments or none: the lines after it are the body of `func main`, which runs once, " +
	"after the cell's declarations, with `os.Args` set to the program's name and the arguments, and `flag.Parse()` " +
	"called first. Its variables are its own; it is not kept for later cells. `-h` shows the flags' usage.\n" +
	"- `%args` arguments: the arguments of the programs of later cells (a `func main` a cell declares), " +
	"until `%%`, `%main` or `%exec` gives others.\n" +
	"- `%exec f` arguments: runs the function `f` (no parameters, no results) as `main`, with those arguments.\n" +
	"- `func init_name()`: every cell that has Go code calls the session's `init_…` functions first, " +
	"in the order of their names.\n" +
	"- A `package` line is left out: the cells are always one package main.\n\n" +
	"### The session's declarations\n\n" +
	"- `%list` (`%ls`): the imports, constants, types, variables and functions kept from cell to cell " +
	"(a method as `Type~Method`).\n" +
	"- `%rm` names (`%remove`): forgets those declarations or imports; a later cell may declare them anew.\n" +
	"- `%reset`: forgets them all.\n\n" +
	"### The process\n\n" +
	"- `%env NAME value` (or `NAME=value`): sets an environment variable, for the cells' code and shell lines.\n" +
	"- `%cd dir`: changes the working directory (with no directory, says which it is).\n" +
	"- `!command`: runs the line with `bash -c` in the working directory, the notebook's unless `%cd` changed it, " +
	"its output shown as it comes. Only on a server: the browser has no shell.\n\n" +
	"### For GoNB\n\n" +
	"GoNB compiles; the instant engine interprets. A cell with a command that only means something to the " +
	"compiler (`%goflags`, `%test`, `%wasm`, `%track`, `%untrack`, `%goworkfix`, `%autoget`, `%noautoget`, " +
	"`%reset go.mod`), that captures a compiled program's output (`%capture`), a cell magic (`%%writefile`, " +
	"`%%script`, `%%bash`, `%%sh`) or a `!*` line (which runs where GoNB compiles) goes to GoNB in the " +
	"\"Go (tensornb)\" kernel, as a `%%gonb` cell does: it does not see the interpreted cells' declarations. " +
	"Elsewhere such a cell is refused.\n\n" +
	"### tensornb's own\n\n" +
	"- `%%gonb` as a cell's first line: GoNB compiles and runs the cell, with its own declarations.\n" +
	"- `%help`: this page; `%version`: the versions of Go, tensornb, yaegi and GoNB.\n" +
	"- A package a cell uses without importing it is imported for it, when its name says which.\n"
