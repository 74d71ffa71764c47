import { describe, expect, test } from "vitest";
import { compileUriTemplate } from "@/lib/gate/uri-template";

const admits = (template: string, uri: string) => compileUriTemplate(template).matches(uri);

describe("compileUriTemplate: what a record's template admits", () => {
  test.each([
    ["notes://items/{id}", "notes://items/42"],
    ["notes://items/{id}", "notes://items/caf%C3%A9"],
    ["notes://items/{id}", "notes://items/a-b_c.d~e"],
    ["notes://items/{id}", "notes://items/a%20b"],
    ["notes://items{/id}", "notes://items/42"],
    ["notes://items/{id}{.ext}", "notes://items/42.md"],
    ["notes://{+path}", "notes://a/b/c.md"],
    ["notes://{+path}", "notes://a:b@c/d,e;f=g"],
    ["notes://doc{#section}", "notes://doc#intro/part"],
    ["notes://search{?q,lang}", "notes://search"],
    ["notes://search{?q,lang}", "notes://search?q=payments"],
    ["notes://search{?q,lang}", "notes://search?q=payments&lang=en"],
    ["notes://search{?q,lang}", "notes://search?lang=en"],
    ["notes://search?q={q}", "notes://search?q=x"],
    ["notes://static", "notes://static"],
  ])("%s admits %s", (template, uri) => {
    expect(admits(template, uri)).toBe(true);
  });

  test.each([
    ["notes://items/{id}", "notes://items/42?x=1"],
    ["notes://items/{id}", "notes://items/42#frag"],
    ["notes://items/{id}", "notes://items/a/b"],
    ["notes://items/{id}", "notes://items/..%2Fprivate"],
    ["notes://items/{id}", "notes://items/a%2Fb"],
    ["notes://items/{id}", "notes://items/a%2fb"],
    ["notes://items/{id}", "notes://items/a%5Cb"],
    ["notes://items/{id}", "notes://items/%2E%2E"],
    ["notes://items/{id}", "notes://items/%2e"],
    ["notes://items/{id}", "notes://items/.."],
    ["notes://items/{id}", "notes://items/."],
    ["notes://items/{id}", "notes://items/a\nb"],
    ["notes://items/{id}", "notes://items/a%0Ab"],
    ["notes://items/{id}", "notes://items/a%00"],
    ["notes://items/{id}", "notes://items/%252F"],
    ["notes://items/{id}", "notes://items/%41"],
    ["notes://items/{id}", "notes://items/"],
    ["notes://items/{id}", "notes://items/a b"],
    ["notes://items/{id}", "NOTES://items/42"],
    ["notes://items/{id}", "notes://items/42 "],
    ["notes://items/{id}", "notes://items/%3F"],
    ["notes://items/{id}", "notes://items/%23"],
    ["notes://{+path}", "notes://a/../private"],
    ["notes://{+path}", "notes://a/%2E%2E/private"],
    ["notes://{+path}", "notes://a//b"],
    ["notes://{+path}", "notes://a?b"],
    ["notes://{+path}", "notes://a#b"],
    ["notes://{+path}", "notes://a%2Fb"],
    ["notes://{+path}", "notes://a\r\nb"],
    ["notes://{+path}", "notes://"],
    ["notes://search{?q,lang}", "notes://search?lang=en&q=x"],
    ["notes://search{?q,lang}", "notes://search?q=x&q=y"],
    ["notes://search{?q,lang}", "notes://search?admin=1"],
    ["notes://search{?q,lang}", "notes://search?q=a/b"],
    ["notes://search{?q,lang}", "notes://search?q=x#f"],
    ["notes://items/{id*}", "notes://items/42"],
    ["notes://items/{id:3}", "notes://items/42"],
    ["notes://items/{;id}", "notes://items/;id=42"],
    ["notes://items/{a,b}", "notes://items/1,2"],
    ["notes://items/{id", "notes://items/{id"],
    ["notes://static", "notes://static/x"],
  ])("%s refuses %j", (template, uri) => {
    expect(admits(template, uri)).toBe(false);
  });
});
