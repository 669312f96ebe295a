module github.com/tensornb/tensornb/docker

go 1.26.8

require github.com/moby/buildkit v0.34.2

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/chromedp/chromedp v0.23.0 // indirect
	github.com/containerd/typeurl/v2 v2.3.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/pkg/errors v0.9.1 // indirect
	github.com/planetscale/vtprotobuf v0.6.1-0.20240319094008-0393e58bdf10 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

// The tensornb module of this checkout: the test starts containers as
// tensornb grade does (internal/containers).
require github.com/tensornb/tensornb v0.0.0

replace github.com/tensornb/tensornb => ../
