module github.com/tensornb/tensornb

go 1.26
