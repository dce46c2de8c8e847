package model

import "time"

// statusText is the reason phrase of an HTTP status code, "" for a code
// without one: the codes of RFC 9110 §15 (1xx §15.2, 2xx §15.3, 3xx §15.4,
// 4xx §15.5, 5xx §15.6) and the registered extensions named beside them,
// with the phrases Go's net/http prints (StatusText), so that an
// APIError's text is what it was when net/http made it: where RFC 9110
// renamed a status (413, 414, 416, 422) the older phrase is kept. The
// test checks every code from 0 to 999 against net/http.
//
// This package does not import net/http: the toolfind command links it,
// and net/http's package initialisation (crypto/tls, x509, http2) would
// run on every start.
func statusText(code int) string {
	switch code {
	case 100: // RFC 9110 §15.2.1
		return "Continue"
	case 101: // §15.2.2
		return "Switching Protocols"
	case 102: // RFC 2518 §10.1
		return "Processing"
	case 103: // RFC 8297 §2
		return "Early Hints"
	case 200: // RFC 9110 §15.3.1
		return "OK"
	case 201: // §15.3.2
		return "Created"
	case 202: // §15.3.3
		return "Accepted"
	case 203: // §15.3.4
		return "Non-Authoritative Information"
	case 204: // §15.3.5
		return "No Content"
	case 205: // §15.3.6
		return "Reset Content"
	case 206: // §15.3.7
		return "Partial Content"
	case 207: // RFC 4918 §11.1
		return "Multi-Status"
	case 208: // RFC 5842 §7.1
		return "Already Reported"
	case 226: // RFC 3229 §10.4.1
		return "IM Used"
	case 300: // RFC 9110 §15.4.1
		return "Multiple Choices"
	case 301: // §15.4.2
		return "Moved Permanently"
	case 302: // §15.4.3
		return "Found"
	case 303: // §15.4.4
		return "See Other"
	case 304: // §15.4.5
		return "Not Modified"
	case 305: // §15.4.6
		return "Use Proxy"
	case 307: // §15.4.8
		return "Temporary Redirect"
	case 308: // §15.4.9
		return "Permanent Redirect"
	case 400: // RFC 9110 §15.5.1
		return "Bad Request"
	case 401: // §15.5.2
		return "Unauthorized"
	case 402: // §15.5.3
		return "Payment Required"
	case 403: // §15.5.4
		return "Forbidden"
	case 404: // §15.5.5
		return "Not Found"
	case 405: // §15.5.6
		return "Method Not Allowed"
	case 406: // §15.5.7
		return "Not Acceptable"
	case 407: // §15.5.8
		return "Proxy Authentication Required"
	case 408: // §15.5.9
		return "Request Timeout"
	case 409: // §15.5.10
		return "Conflict"
	case 410: // §15.5.11
		return "Gone"
	case 411: // §15.5.12
		return "Length Required"
	case 412: // §15.5.13
		return "Precondition Failed"
	case 413: // §15.5.14 (Content Too Large)
		return "Request Entity Too Large"
	case 414: // §15.5.15 (URI Too Long)
		return "Request URI Too Long"
	case 415: // §15.5.16
		return "Unsupported Media Type"
	case 416: // §15.5.17 (Range Not Satisfiable)
		return "Requested Range Not Satisfiable"
	case 417: // §15.5.18
		return "Expectation Failed"
	case 418: // §15.5.19 (unused; RFC 2324)
		return "I'm a teapot"
	case 421: // §15.5.20
		return "Misdirected Request"
	case 422: // §15.5.21 (Unprocessable Content)
		return "Unprocessable Entity"
	case 423: // RFC 4918 §11.3
		return "Locked"
	case 424: // RFC 4918 §11.4
		return "Failed Dependency"
	case 425: // RFC 8470 §5.2
		return "Too Early"
	case 426: // RFC 9110 §15.5.22
		return "Upgrade Required"
	case 428: // RFC 6585 §3
		return "Precondition Required"
	case 429: // RFC 6585 §4
		return "Too Many Requests"
	case 431: // RFC 6585 §5
		return "Request Header Fields Too Large"
	case 451: // RFC 7725 §3
		return "Unavailable For Legal Reasons"
	case 500: // RFC 9110 §15.6.1
		return "Internal Server Error"
	case 501: // §15.6.2
		return "Not Implemented"
	case 502: // §15.6.3
		return "Bad Gateway"
	case 503: // §15.6.4
		return "Service Unavailable"
	case 504: // §15.6.5
		return "Gateway Timeout"
	case 505: // §15.6.6
		return "HTTP Version Not Supported"
	case 506: // RFC 2295 §8.1
		return "Variant Also Negotiates"
	case 507: // RFC 4918 §11.5
		return "Insufficient Storage"
	case 508: // RFC 5842 §7.2
		return "Loop Detected"
	case 510: // RFC 2774 §7
		return "Not Extended"
	case 511: // RFC 6585 §6
		return "Network Authentication Required"
	}
	return ""
}

// parseHTTPTime parses an HTTP date (RFC 9110 §5.6.7): the preferred
// IMF-fixdate, or the obsolete RFC 850 and asctime forms, as net/http's
// ParseTime does.
func parseHTTPTime(s string) (t time.Time, err error) {
	for _, layout := range [...]string{"Mon, 02 Jan 2006 15:04:05 GMT", time.RFC850, time.ANSIC} {
		if t, err = time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return t, err
}
