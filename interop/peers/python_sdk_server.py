"""The mcp Python SDK's MCPServer for the interop suite: questions as SDK users write them.

Usage: python_sdk_server.py stdio | python_sdk_server.py http PORT
ctx.elicit takes a pydantic model, so every form carries a root `title` (issue 14, finding 1).
"""

import asyncio
import json
import sys
from typing import Literal

from pydantic import BaseModel, Field

from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("python-sdk-peer")


class Profile(BaseModel):
    name: str
    age: int
    height: float
    subscribed: bool
    size: Literal["s", "m", "l"]


class Defaults(BaseModel):
    name: str = "Ada"
    age: int = Field(default=36)
    subscribed: bool = True


class Note(BaseModel):
    text: str


def outcome(result) -> str:
    if result.action != "accept":
        return result.action
    return json.dumps(result.data.model_dump(), sort_keys=True)


@server.tool()
async def profile(ctx: Context) -> str:
    return outcome(await ctx.elicit("Your profile", Profile))


@server.tool()
async def confirm(ctx: Context) -> str:
    return outcome(await ctx.elicit("Go ahead?", Note))


@server.tool()
async def two_steps(ctx: Context) -> str:
    first = await ctx.elicit("Step 1: your name?", Note)
    if first.action != "accept":
        return first.action
    second = await ctx.elicit("Step 2: favourite color?", Note)
    if second.action != "accept":
        return second.action
    return f"{first.data.text} likes {second.data.text}"


@server.tool()
async def with_defaults(ctx: Context) -> str:
    return outcome(await ctx.elicit("Confirm the defaults", Defaults))


@server.tool()
async def sign_in(ctx: Context) -> str:
    result = await ctx.elicit_url("Sign in to continue", "https://auth.example.com/start", "flow-1")
    return result.action


@server.tool()
async def tagged(tag: str, delay: float, ctx: Context) -> str:
    await asyncio.sleep(delay)
    answer = await ctx.elicit(f"Question for {tag}", Note)
    return f"{tag}: {answer.data.text if answer.action == 'accept' else answer.action}"


if __name__ == "__main__":
    if sys.argv[1] == "stdio":
        server.run()
    else:
        server.run(transport="streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
