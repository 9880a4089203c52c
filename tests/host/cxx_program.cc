// SPDX-License-Identifier: GPL-2.0
/*
 * A C++ program against the installed libfclog (tests/host/install_test.sh
 * builds it with pkg-config's flags and runs it): fclog.h must compile as
 * C++ and declare its functions extern "C", or this does not link.  It
 * prints what the test compares: a parsed record, the version the header
 * and the library say, and the mount API's constants as fclog.h gives them.
 */
#include <cstdio>
#include <cstring>

#include <fclog.h>

int main()
{
	static const char rec[] = "e tmpfs: Bad value for 'size'\n\0"
		"{\"seq\":3,\"level\":\"error\",\"source\":\"tmpfs\","
		"\"msg\":\"Bad value for 'size'\",\"event\":\"param_rejected\","
		"\"cause\":\"bad_value\",\"param\":\"size\",\"value\":\"abc\","
		"\"errno\":22,\"op\":\"set_string\"}";
	struct fclog_record *r, *kept;
	char err[128];

	if (fclog_parse(rec, sizeof(rec) - 1, &r, err, sizeof(err))) {
		std::fprintf(stderr, "%s\n", err);
		return 1;
	}
	kept = fclog_record_ref(r);
	fclog_record_unref(r);
	fclog_print(stdout, kept, FCLOG_PRINT_DETAIL);
	std::printf("%s\n", fclog_cause_name(kept->cause));
	fclog_record_free(kept);

	std::printf("header %d.%d.%d 0x%06x, library 0x%06x\n",
		    FCLOG_VERSION_MAJOR, FCLOG_VERSION_MINOR,
		    FCLOG_VERSION_MICRO, FCLOG_VERSION_HEX, fclog_version());
	return 0;
}
