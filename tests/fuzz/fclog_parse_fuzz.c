// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for fclog_parse(): whatever bytes a read() could return,
 * the parser must not crash, read out of bounds or leak, and a record it
 * accepts must be consistent.  Built with -fsanitize=fuzzer,address,undefined.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fclog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fclog_record *rec;
	char err[128];
	size_t i;

	if (fclog_parse(data, size, &rec, err, sizeof(err)) == 0) {
		/* An accepted record has every string and a known level. */
		if (!rec->text || !rec->source || !rec->msg ||
		    rec->level > FCLOG_ERROR || strlen(rec->msg) > rec->msg_len)
			abort();
		/*
		 * Report fields are consistent: a name for every enum, and
		 * the library's own name for every one it knows (causes
		 * added within the soname come after _OTHER); a
		 * superblock's id only with its type (another user
		 * namespace's superblock has a type and no id); a rejection
		 * only of the four events that are, with an errno.
		 */
		if (rec->event > FCLOG_EVENT_OTHER ||
		    rec->cause > FCLOG_CAUSE_O_PATH ||
		    (rec->cause != FCLOG_CAUSE_NONE &&
		     rec->cause != FCLOG_CAUSE_OTHER &&
		     !fclog_cause_name(rec->cause)) ||
		    rec->op > FCLOG_OP_OTHER ||
		    rec->expected > FCLOG_OP_OTHER ||
		    rec->verdict > FCLOG_VERDICT_OTHER ||
		    !rec->event_name != (rec->event == FCLOG_EVENT_NONE) ||
		    !rec->cause_name != (rec->cause == FCLOG_CAUSE_NONE) ||
		    !rec->op_name != (rec->op == FCLOG_OP_NONE) ||
		    !rec->expected_name != (rec->expected == FCLOG_OP_NONE) ||
		    !rec->verdict_name != (rec->verdict == FCLOG_VERDICT_NONE) ||
		    (fclog_event_name(rec->event) &&
		     strcmp(fclog_event_name(rec->event), rec->event_name)) ||
		    (fclog_cause_name(rec->cause) &&
		     strcmp(fclog_cause_name(rec->cause), rec->cause_name)) ||
		    (fclog_verdict_name(rec->verdict) &&
		     strcmp(fclog_verdict_name(rec->verdict),
			    rec->verdict_name)) ||
		    rec->errnum < 0 || (rec->sb_id && !rec->sb_type) ||
		    (!rec->params && rec->nparams))
			abort();
		if (fclog_record_is_rejection(rec) &&
		    (rec->errnum <= 0 ||
		     (rec->event != FCLOG_EVENT_PARAM_REJECTED &&
		      rec->event != FCLOG_EVENT_SB_CONFLICT &&
		      rec->event != FCLOG_EVENT_CREATE_FAILED &&
		      rec->event != FCLOG_EVENT_RECONFIGURE_FAILED)))
			abort();
		/* Each parameter named, with its match and that match's name. */
		for (i = 0; i < rec->nparams; i++)
			if (!rec->params[i].name || !rec->params[i].match_name ||
			    rec->params[i].match > FCLOG_MATCH_OTHER ||
			    (fclog_match_name(rec->params[i].match) ?
			     strcmp(fclog_match_name(rec->params[i].match),
				    rec->params[i].match_name) :
			     rec->params[i].match != FCLOG_MATCH_OTHER))
				abort();
		fclog_record_free(rec);
	} else if (rec || !err[0]) {
		abort();	/* a refusal leaves nothing and says why */
	}
	return 0;
}
