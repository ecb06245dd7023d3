// json_fast.cc - simdjson's DOM parser, its document rebuilt as a cJSON tree (json_fast.h).
// The only C++ of the library: error codes, no exceptions, nothing thrown across the C interface.
#define SIMDJSON_EXCEPTIONS 0
#include <simdjson.h>

#include <cstring>
#include <new>
#include <string>

#include "json_fast.h"

using simdjson::dom::element;
using simdjson::dom::element_type;

struct pq_json_fast {
	simdjson::dom::parser parser;
	std::string scratch;   // a string or key with its NULs replaced
};

pq_json_fast *pq_json_fast_new(void)
{
	pq_json_fast *f = new (std::nothrow) pq_json_fast;

	if (f != nullptr && f->parser.allocate(1 << 16, PQ_JSON_FAST_DEPTH) != simdjson::SUCCESS) {
		delete f;
		return nullptr;
	}
	return f;
}

void pq_json_fast_free(pq_json_fast *f)
{
	delete f;
}

namespace {

const char kReplacement[] = "\xef\xbf\xbd";  // U+FFFD

// s as a NUL-terminated string for cJSON: itself (simdjson ends its strings with a NUL) unless
// it holds a NUL, which only \u0000 can put there: then a copy with U+FFFD for each.
const char *c_text(pq_json_fast *f, std::string_view s, const char *c_str, bool *oom)
{
	if (std::memchr(s.data(), 0, s.size()) == nullptr)
		return c_str;
	try {
		f->scratch.clear();
		for (char ch : s) {
			if (ch == '\0')
				f->scratch.append(kReplacement, 3);
			else
				f->scratch.push_back(ch);
		}
	} catch (const std::bad_alloc &) {
		*oom = true;
		return nullptr;
	}
	return f->scratch.c_str();
}

// simdjson reads "-0" as the integer 0; cJSON keeps strtod's -0.0. Does the text hold "-0" as a
// whole number (not "-0.5", "-01" or the "-0" of a date)? Then cJSON builds that tree.
bool has_negative_zero(const char *text, size_t n)
{
	for (const char *p = text, *end = text + n; (p = static_cast<const char *>(
		     std::memchr(p, '-', static_cast<size_t>(end - p)))) != nullptr; p++)
		if (end - p >= 2 && p[1] == '0' &&
		    (end - p == 2 || std::strchr(",]} \t\r\n", p[2]) != nullptr))
			return true;
	return false;
}

struct builder {
	pq_json_fast *f;
	pq_json_keep_fn keep;
	bool oom = false;
	bool int_zero = false;   // an INT64 0 was built: it may have been written "-0"

	cJSON *value(element e, int depth);
	// An object, with only the members only() accepts when it is given.
	cJSON *object(element e, int depth, pq_json_keep_fn only = nullptr);
	cJSON *array(element e, int depth);
};

cJSON *builder::value(element e, int depth)
{
	cJSON *item = nullptr;

	switch (e.type()) {
	case element_type::OBJECT:
		return object(e, depth);
	case element_type::ARRAY:
		return array(e, depth);
	case element_type::INT64: {
		int64_t i = e.get_int64().value_unsafe();

		int_zero = int_zero || i == 0;
		// The double strtod() gives cJSON: both round to nearest.
		item = cJSON_CreateNumber(static_cast<double>(i));
		break;
	}
	case element_type::UINT64:
		item = cJSON_CreateNumber(static_cast<double>(e.get_uint64().value_unsafe()));
		break;
	case element_type::DOUBLE:
		item = cJSON_CreateNumber(e.get_double().value_unsafe());
		break;
	case element_type::STRING: {
		std::string_view s = e.get_string().value_unsafe();
		const char *t = c_text(f, s, e.get_c_str().value_unsafe(), &oom);

		if (t == nullptr)
			return nullptr;
		item = cJSON_CreateString(t);
		break;
	}
	case element_type::BOOL:
		item = cJSON_CreateBool(e.get_bool().value_unsafe());
		break;
	case element_type::NULL_VALUE:
		item = cJSON_CreateNull();
		break;
	}
	if (item == nullptr)
		oom = true;
	return item;
}

cJSON *builder::object(element e, int depth, pq_json_keep_fn only)
{
	cJSON *o = cJSON_CreateObject();

	if (o == nullptr) {
		oom = true;
		return nullptr;
	}
	simdjson::dom::object members = e.get_object().value_unsafe();

	for (auto field : members) {
		cJSON *item;
		const char *k;

		if (only != nullptr && !only(field.key.data(), field.key.size()))
			continue;
		// The root's "args" objects: only the members the caller reads.
		if (keep != nullptr && depth == 0 && field.key == "args" &&
		    field.value.type() == element_type::OBJECT)
			item = object(field.value, depth + 1, keep);
		else
			item = value(field.value, depth + 1);
		k = item != nullptr ? c_text(f, field.key, field.key.data(), &oom) : nullptr;
		if (k == nullptr || !cJSON_AddItemToObject(o, k, item)) {
			cJSON_Delete(item);
			cJSON_Delete(o);
			oom = true;
			return nullptr;
		}
	}
	return o;
}

cJSON *builder::array(element e, int depth)
{
	cJSON *a = cJSON_CreateArray();

	if (a == nullptr) {
		oom = true;
		return nullptr;
	}
	simdjson::dom::array items = e.get_array().value_unsafe();

	for (element v : items) {
		cJSON *item = value(v, depth + 1);

		if (item == nullptr || !cJSON_AddItemToArray(a, item)) {
			cJSON_Delete(item);
			cJSON_Delete(a);
			oom = true;
			return nullptr;
		}
	}
	return a;
}

}  // namespace

cJSON *pq_json_fast_tree(pq_json_fast *f, const char *text, size_t n, pq_json_keep_fn keep,
			 int *oom)
{
	element root;
	builder b{f, keep};
	cJSON *tree;

	*oom = 0;
	if (f->parser.parse(text, n).get(root) != simdjson::SUCCESS) {
		// CAPACITY and MEMALLOC are memory, not the text: cJSON is asked either way.
		return nullptr;
	}
	tree = b.value(root, 0);
	*oom = b.oom ? 1 : 0;
	if (tree != nullptr && b.int_zero && has_negative_zero(text, n)) {
		cJSON_Delete(tree);
		return nullptr;
	}
	return tree;
}
