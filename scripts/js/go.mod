// This folder is an npm package, not Go code: this file makes it a module
// of its own, so that go list, go vet and go test ./... of tensornb's
// module leave out the Go files some npm packages ship in node_modules
// (flatted, which ESLint uses, has one).
module tensornb.invalid/scripts/js

go 1.26
