module pproftest

go 1.19
