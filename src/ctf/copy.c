/* SPDX-License-Identifier: MIT */
/*
 * copy.c - a CTF trace written out without decoding its events: when
 * `convert` filters nothing, the packets need no change, so each stream
 * file is copied whole (copy_file_range, which lets the kernel share or
 * move the data) and only the metadata is written anew, as text, from the
 * classes it was read into.  Since that text states every layout
 * attribute explicitly, it describes the copied packets exactly.
 */
#include "ctf/ctf_write.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Whether FC, a CTF 1.8 class shown by readers (in the packet context,
 * the contexts or the payload), hides nothing: CTF 1.8 readers hide
 * clock-mapped integers and the compounds all of whose members they hide,
 * which CTF 2 has no way to hide.  PACKET_CONTEXT: FC is the packet
 * context, whose special members become roles, which CTF 2 readers hide
 * as well. */
static bool shows_all(const tc_field_class *fc, bool packet_context)
{
	if (!fc)
		return true;
	if ((fc->flags & TC_FIELD_HIDDEN) && !packet_context)
		return false;
	for (size_t i = 0; i < fc->member_count; i++) {
		const tc_field_class *m = fc->members[i].cls;
		if (packet_context && (m->flags & TC_FIELD_HIDDEN)) {
			tc_field_role r = m->role;
			bool timed = r == TC_ROLE_TS_BEGIN || r == TC_ROLE_TS_END;
			if ((m->kind != TC_FIELD_INT && m->kind != TC_FIELD_ENUM) || m->is_signed || (timed && !m->clock) ||
			    !(timed || r == TC_ROLE_PACKET_SIZE || r == TC_ROLE_CONTENT_SIZE || r == TC_ROLE_EVENTS_DISCARDED ||
			      r == TC_ROLE_PACKET_SEQ_NUM))
				return false;
		} else if (!shows_all(m, false)) {
			return false;
		}
	}
	return !fc->element || shows_all(fc->element, false);
}

/* CTF 2 packets (LEB128 integers, UTF-16 strings, other bit orders...)
 * have no TSDL description, nor CTF 2's names and roles: the writer
 * re-encodes them for CTF 1.8.  CTF 1.8 packets have a CTF 2 description,
 * but what a CTF 1.8 reader hides outside the headers (clock-mapped
 * integers of the payload, say) a CTF 2 reader would show: the writer
 * re-encodes those without it. */
bool tc_ctf_can_copy(const tc_trace *trace, int ctf_version)
{
	if (!trace || trace->layout == TC_LAYOUT_OWN)
		return false;
	/* CTF 2 packets copy only to CTF 2; CTF 1.8 ones always to CTF 1.8 */
	if (trace->layout == TC_LAYOUT_CTF2)
		return ctf_version == 2;
	if (ctf_version != 2)
		return true;
	for (size_t i = 0; i < trace->stream_class_count; i++) {
		const tc_stream_class *sc = trace->stream_classes[i];
		if (!shows_all(sc->packet_context, true) || !shows_all(sc->event_context, false))
			return false;
		for (size_t e = 0; e < sc->event_class_count; e++)
			if (!shows_all(sc->event_classes[e]->context, false) || !shows_all(sc->event_classes[e]->payload, false))
				return false;
	}
	return true;
}

static int write_all(int fd, const char *path, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return tc_fail(TC_EIO, path, -1, "%s", strerror(errno));
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int ctf_write_file(const char *dir, const char *name, const void *data, size_t len)
{
	char path[4096];
	if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path)
		return tc_fail(TC_EINVAL, dir, -1, "path too long");
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return tc_fail(TC_EIO, path, -1, "%s", strerror(errno));
	int rc = write_all(fd, path, data, len);
	if (close(fd) < 0 && rc == 0)
		rc = tc_fail(TC_EIO, path, -1, "%s", strerror(errno));
	return rc;
}

static int copy_file(const char *src, const char *dst, uint64_t *bytes)
{
	int in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return tc_fail_open(src);
	int out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		int rc = tc_fail(TC_EIO, dst, -1, "%s", strerror(errno));
		close(in);
		return rc;
	}
	int rc = 0;
	bool plain = false;
	static char buf[1 << 16];
	for (;;) {
		ssize_t n;
		if (!plain) {
			n = copy_file_range(in, NULL, out, NULL, 1 << 30, 0);
			if (n < 0 && (errno == EXDEV || errno == ENOSYS || errno == EINVAL || errno == EOPNOTSUPP)) {
				plain = true;
				continue;
			}
			if (n < 0 && errno != EINTR) {
				rc = tc_fail(TC_EIO, dst, -1, "cannot copy %s: %s", src, strerror(errno));
				break;
			}
		} else {
			n = read(in, buf, sizeof buf);
			if (n < 0 && errno != EINTR) {
				rc = tc_fail(TC_EIO, src, -1, "cannot read: %s", strerror(errno));
				break;
			}
			if (n > 0 && (rc = write_all(out, dst, buf, (size_t)n)) < 0)
				break;
		}
		if (n == 0)
			break;
		if (n > 0 && bytes)
			*bytes += (uint64_t)n;
	}
	close(in);
	if (close(out) < 0 && rc == 0)
		rc = tc_fail(TC_EIO, dst, -1, "%s", strerror(errno));
	return rc;
}

/* DIR/BASE, or DIR/BASE.N for the first N that names no file yet: files
 * of directories merged by UUID may share their names. */
static int free_name(const char *dir, const char *base, char *out, size_t size)
{
	struct stat st;
	for (unsigned n = 0; n < 100000; n++) {
		int len = n ? snprintf(out, size, "%s/%s.%u", dir, base, n) : snprintf(out, size, "%s/%s", dir, base);
		if (len < 0 || (size_t)len >= size)
			return tc_fail(TC_EINVAL, dir, -1, "path too long");
		if (lstat(out, &st) < 0 && errno == ENOENT)
			return 0;
	}
	return tc_fail(TC_EIO, dir, -1, "no free name for %s", base);
}

/* DIR and its parents, with the metadata file, unless already made. */
static int make_trace_dir(const char *dir, const tc_buf *meta)
{
	char path[4096];
	struct stat st;
	snprintf(path, sizeof path, "%s/metadata", dir);
	if (lstat(path, &st) == 0)
		return 0;
	snprintf(path, sizeof path, "%s", dir);
	for (char *p = path + 1;; p++) {
		if (*p && *p != '/')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return tc_fail(TC_EIO, path, -1, "%s", strerror(errno));
		if (!c)
			break;
		*p = c;
	}
	return ctf_write_file(dir, "metadata", meta->data, meta->len);
}

int tc_ctf_copy(tc_input *in, const tc_trace *trace, const char *dir, int ctf_version, uint64_t *bytes)
{
	if (!tc_ctf_can_copy(trace, ctf_version))
		return tc_fail(TC_EINVAL, trace ? trace->path : NULL, -1,
		               trace && trace->layout == TC_LAYOUT_CTF2 ? "CTF 2 traces are copied packet for packet into CTF 2 only"
		                                               : "this trace cannot be copied packet for packet as CTF %d",
		               ctf_version);
	tc_buf meta = { 0 };
	int rc = ctf_version == 2 ? ctf_json_write(trace, &meta) : ctf_tsdl_write(trace, &meta);
	size_t copied = 0;
	for (size_t i = 0; i < trace->stream_count && rc == 0; i++) {
		const tc_stream *s = trace->streams[i];
		for (size_t f = 0; f < s->file_count && rc == 0; f++) {
			const char *src = s->files[f].path;
			const char *slash = strrchr(src, '/');
			char sub[4096], dst[4096];
			const char *rel = s->files[f].dir_in_input;
			if (snprintf(sub, sizeof sub, "%s%s%s", dir, *rel ? "/" : "", rel) >= (int)sizeof sub)
				rc = tc_fail(TC_EINVAL, dir, -1, "path too long");
			if (rc == 0)
				rc = make_trace_dir(sub, &meta);
			if (rc == 0)
				rc = free_name(sub, slash ? slash + 1 : src, dst, sizeof dst);
			if (rc == 0)
				rc = copy_file(src, dst, bytes);
			copied++;
		}
	}
	/* A trace without stream files still gets its metadata. */
	char own[4096];
	snprintf(own, sizeof own, "%s%s%s", dir, *trace->dir_in_input ? "/" : "", trace->dir_in_input);
	if (rc == 0 && copied == 0)
		rc = make_trace_dir(own, &meta);
	tc_buf_free(&meta);
	return rc;
}
