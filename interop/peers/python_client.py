"""A Python client for the interop suite: FastMCP's Client or the mcp SDK's ClientSession.

Usage: python_client.py fastmcp|sdk TARGET PLAN_JSON
TARGET is an http(s) URL or a command line (stdio). PLAN_JSON is
{"calls": [{"tool": ..., "args": {...}}], "answers": {message: answer}}: the calls run concurrently;
each question is answered by its message, the way applications match questions. An answer is
{"action": "decline"|"cancel"} or {"accept": {...fields}}; FastMCP builds its reply the usual way,
`response_type(**fields)` (fields left out are None), the SDK sends the fields as they are.
Prints one JSON object: {"protocol": version, "results": [...], "asked": [...]}.
"""

import asyncio
import json
import shlex
import sys
from contextlib import AsyncExitStack

KIND, TARGET, PLAN = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
asked = []


def lookup(message):
    answer = PLAN["answers"].get(message)
    if answer is None:
        return {"action": "cancel"}
    return answer


async def run_fastmcp():
    from fastmcp import Client
    from fastmcp.client.elicitation import ElicitResult
    from fastmcp.client.transports import PythonStdioTransport, StdioTransport

    async def handler(message, response_type, params, context):
        asked.append(params.model_dump(mode="json", by_alias=True, exclude_none=True))
        answer = lookup(message)
        if "accept" not in answer:
            return ElicitResult(action=answer["action"])
        if response_type is None:
            return ElicitResult(action="accept")
        return response_type(**answer["accept"])

    if TARGET.startswith("http"):
        target = TARGET
    else:
        argv = shlex.split(TARGET)
        target = StdioTransport(command=argv[0], args=argv[1:])
    async with Client(target, elicitation_handler=handler) as client:
        version = getattr(client, "protocol_version", None)
        results = await asyncio.gather(*[call(client.call_tool_mcp, c) for c in PLAN["calls"]])
        return version, results


async def run_sdk():
    import mcp.types as types
    from mcp import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client
    from mcp.client.streamable_http import streamable_http_client

    async def callback(context, params):
        asked.append(params.model_dump(mode="json", by_alias=True, exclude_none=True))
        answer = lookup(params.message)
        if "accept" not in answer:
            return types.ElicitResult(action=answer["action"])
        return types.ElicitResult(action="accept", content=answer["accept"])

    async with AsyncExitStack() as stack:
        if TARGET.startswith("http"):
            streams = await stack.enter_async_context(streamable_http_client(TARGET))
        else:
            argv = shlex.split(TARGET)
            streams = await stack.enter_async_context(
                stdio_client(StdioServerParameters(command=argv[0], args=argv[1:]))
            )
        session = await stack.enter_async_context(
            ClientSession(streams[0], streams[1], elicitation_callback=callback)
        )
        init = await session.initialize()
        results = await asyncio.gather(*[call(session.call_tool, c) for c in PLAN["calls"]])
        return init.protocol_version, results


async def call(method, spec):
    try:
        result = await method(spec["tool"], spec.get("args", {}))
    except Exception as error:  # the peer's own error, reported as data
        return {"error": str(error)}
    text = "".join(getattr(block, "text", "") for block in result.content)
    return {"text": text, "isError": bool(getattr(result, "is_error", None) or False)}


async def main():
    version, results = await (run_fastmcp() if KIND == "fastmcp" else run_sdk())
    print(json.dumps({"protocol": version, "results": results, "asked": asked}))


asyncio.run(main())
