import CCurl
