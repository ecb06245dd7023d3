// json_fast.cc - simdjson's DOM parser, its document rebuilt as a cJSON tree (json_fast.h).
// The only C++ of the library: error codes, no exceptions, nothing thrown across the C interface.
#define SIMDJSON_EXCEPTIONS 0
#include <simdjson.h>

#include <climits>
#include <cstring>
#include <new>

#include "json_fast.h"

using simdjson::dom::element;
using simdjson::dom::element_type;

struct pq_json_fast {
	simdjson::dom::parser parser;
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

// The tree is made node by node through cJSON's allocator or the caller's, laid out as cJSON's
// parser and cJSON_AddItemToObject() lay it out: a key and a string allocated per node, next
// links, and each item's prev the one before it except the first's, which is the last. cJSON's
// constructors cost a strlen, a copy of the key and a checked append per member: most of the
// parsing thread's tree building (bench/RESULTS.md).
struct builder {
	pq_json_alloc_fn alloc;  // nullptr: cJSON_malloc()
	void *ctx;
	pq_json_keep_fn keep;
	bool escapes;            // the text has a backslash: a string may hold a NUL (\u0000)
	bool oom = false;
	bool int_zero = false;   // an INT64 0 was built: it may have been written "-0"

	void *take(size_t n) { return alloc != nullptr ? alloc(ctx, n) : cJSON_malloc(n); }
	cJSON *node(int type);
	char *text(std::string_view s);
	cJSON *value(element e, int depth);
	// An object, with only the members only() accepts when it is given.
	cJSON *object(element e, int depth, pq_json_keep_fn only = nullptr);
	cJSON *array(element e, int depth);
};

cJSON *builder::node(int type)
{
	cJSON *item = static_cast<cJSON *>(take(sizeof(cJSON)));

	if (item == nullptr) {
		oom = true;
		return nullptr;
	}
	std::memset(item, 0, sizeof(*item));
	item->type = type;
	return item;
}

// A NUL-terminated copy of s, each NUL in it (only \u0000 can put one there) as U+FFFD.
char *builder::text(std::string_view s)
{
	size_t nuls = 0;
	char *t;

	if (escapes)
		for (const char *p = s.data(), *end = p + s.size();
		     (p = static_cast<const char *>(std::memchr(p, 0, static_cast<size_t>(end - p)))) !=
		     nullptr; p++)
			nuls++;
	t = static_cast<char *>(take(s.size() + 2 * nuls + 1));
	if (t == nullptr) {
		oom = true;
		return nullptr;
	}
	if (nuls == 0) {
		std::memcpy(t, s.data(), s.size());
		t[s.size()] = '\0';
		return t;
	}
	size_t o = 0;
	for (char ch : s) {
		if (ch == '\0') {
			std::memcpy(t + o, kReplacement, 3);
			o += 3;
		} else {
			t[o++] = ch;
		}
	}
	t[o] = '\0';
	return t;
}

// A number as cJSON_CreateNumber() makes it: valueint saturates at the int range.
void set_number(cJSON *item, double d)
{
	item->valuedouble = d;
	if (d >= INT_MAX)
		item->valueint = INT_MAX;
	else if (d <= static_cast<double>(INT_MIN))
		item->valueint = INT_MIN;
	else
		item->valueint = static_cast<int>(d);
}

// Appends item to the children of parent; *last is the previous last child (nullptr: none).
void append(cJSON *parent, cJSON **last, cJSON *item)
{
	if (*last == nullptr) {
		parent->child = item;
	} else {
		(*last)->next = item;
		item->prev = *last;
	}
	parent->child->prev = item;
	*last = item;
}

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
		if ((item = node(cJSON_Number)) != nullptr)
			set_number(item, static_cast<double>(i));
		break;
	}
	case element_type::UINT64:
		if ((item = node(cJSON_Number)) != nullptr)
			set_number(item, static_cast<double>(e.get_uint64().value_unsafe()));
		break;
	case element_type::DOUBLE:
		if ((item = node(cJSON_Number)) != nullptr)
			set_number(item, e.get_double().value_unsafe());
		break;
	case element_type::STRING:
		if ((item = node(cJSON_String)) != nullptr &&
		    (item->valuestring = text(e.get_string().value_unsafe())) == nullptr) {
			cJSON_Delete(item);
			item = nullptr;
		}
		break;
	case element_type::BOOL:
		item = node(e.get_bool().value_unsafe() ? cJSON_True : cJSON_False);
		break;
	case element_type::NULL_VALUE:
		item = node(cJSON_NULL);
		break;
	}
	return item;
}

cJSON *builder::object(element e, int depth, pq_json_keep_fn only)
{
	cJSON *o = node(cJSON_Object), *last = nullptr;

	if (o == nullptr)
		return nullptr;
	simdjson::dom::object members = e.get_object().value_unsafe();

	for (auto field : members) {
		cJSON *item;

		if (only != nullptr && !only(field.key.data(), field.key.size()))
			continue;
		// The root's "args" objects: only the members the caller reads.
		if (keep != nullptr && depth == 0 && field.key == "args" &&
		    field.value.type() == element_type::OBJECT)
			item = object(field.value, depth + 1, keep);
		else
			item = value(field.value, depth + 1);
		if (item == nullptr || (item->string = text(field.key)) == nullptr) {
			cJSON_Delete(item);
			cJSON_Delete(o);
			return nullptr;
		}
		append(o, &last, item);
	}
	return o;
}

cJSON *builder::array(element e, int depth)
{
	cJSON *a = node(cJSON_Array), *last = nullptr;

	if (a == nullptr)
		return nullptr;
	simdjson::dom::array items = e.get_array().value_unsafe();

	for (element v : items) {
		cJSON *item = value(v, depth + 1);

		if (item == nullptr) {
			cJSON_Delete(a);
			return nullptr;
		}
		append(a, &last, item);
	}
	return a;
}

}  // namespace

cJSON *pq_json_fast_tree(pq_json_fast *f, const char *text, size_t n, pq_json_keep_fn keep,
			 int *oom)
{
	return pq_json_fast_tree_in(f, nullptr, nullptr, text, n, keep, oom);
}

cJSON *pq_json_fast_tree_in(pq_json_fast *f, pq_json_alloc_fn alloc, void *ctx, const char *text,
			    size_t n, pq_json_keep_fn keep, int *oom)
{
	element root;
	builder b{alloc, ctx, keep, std::memchr(text, '\\', n) != nullptr};
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
