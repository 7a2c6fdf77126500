#!/usr/bin/env python3
"""Loads a pagestream chunk file into Python LangChain Documents, as the lines are.

    pagestream export --shape langchain_python --out chunks.jsonl
    python3 examples/python/load_langchain.py chunks.jsonl

(or a jsonl sink with `shape: langchain_python`). Each line is `Document(**line)`:
`page_content`, `metadata` (document_id, chunk_index, source_uri, path, title, pages,
headings, ...) and `id`, the chunk's stable id, so loading the file again into a vector store
(`vector_store.add_documents(documents, ids=[d.id for d in documents])`) replaces the chunks
rather than adding copies.

Needs langchain-core (`pip install langchain-core`). Prints how many Documents it made; with
--json, each one as a JSON line (Document.model_dump()). A line it cannot load (LangChain.js's
camelCase shape, another shape, a tombstone of a log file) stops it with the file, the line and
what to do, exit 2.
"""
import json
import sys

from langchain_core.documents import Document


class BadLine(Exception):
    pass


def load(path):
    """The Documents of a chunk file of shape langchain_python."""
    documents = []
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            at = f"{path} line {number}"
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise BadLine(f"{at} is not JSON ({err.msg})") from None
            if record.get("type") == "tombstone":
                raise BadLine(f"{at} is a tombstone: load a snapshot (mode: snapshot) or `pagestream export`, which hold only the live chunks")
            if "pageContent" in record:
                raise BadLine(f"{at} is LangChain.js's shape (pageContent): write it with shape: langchain_python, or export with --shape langchain_python")
            if "page_content" not in record:
                raise BadLine(f"{at} is not shape langchain_python (no page_content): export with --shape langchain_python")
            documents.append(Document(**record))
    return documents


def main(argv):
    args = [a for a in argv if a != "--json"]
    if len(args) != 1:
        print("usage: load_langchain.py CHUNKS.jsonl [--json]", file=sys.stderr)
        return 2
    try:
        documents = load(args[0])
    except (BadLine, OSError) as err:
        print(f"load_langchain: {err}", file=sys.stderr)
        return 2
    if "--json" in argv:
        for d in documents:
            print(json.dumps(d.model_dump(), ensure_ascii=False))
    else:
        ids = {d.id for d in documents}
        print(f"{len(documents)} Documents from {args[0]}, {len(ids)} distinct ids")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
