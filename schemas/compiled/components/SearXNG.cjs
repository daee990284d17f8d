// Generated from schemas/components/SearXNG.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/SearXNG.schema.json","title":"SearXNG params","description":"Search through a SearXNG instance (RAGFlow SearXNGParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content, json.","type":"object","properties":{"query":{"type":"string","description":"Search keywords. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"searxng_url":{"type":"string","description":"Base URL of the SearXNG instance, e.g. http://localhost:4000. Empty: the search returns nothing."},"top_n":{"type":["integer","string"],"description":"Number of results (> 0, default 10)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/SearXNG.schema.json" */;
let vErrors = null;
let errors = 0;
const evaluated0 = validate20.evaluated;
if(evaluated0.dynamicProps){
evaluated0.props = undefined;
}
if(evaluated0.dynamicItems){
evaluated0.items = undefined;
}
if(data && typeof data == "object" && !Array.isArray(data)){
if(data.query !== undefined){
let data0 = data.query;
if(typeof data0 !== "string"){
const err0 = {instancePath:instancePath+"/query",schemaPath:"#/properties/query/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.query.type,parentSchema:schema31.properties.query,data:data0};
if(vErrors === null){
vErrors = [err0];
}
else {
vErrors.push(err0);
}
errors++;
}
}
if(data.searxng_url !== undefined){
let data1 = data.searxng_url;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/searxng_url",schemaPath:"#/properties/searxng_url/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.searxng_url.type,parentSchema:schema31.properties.searxng_url,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.top_n !== undefined){
let data2 = data.top_n;
if((!((typeof data2 == "number") && (!(data2 % 1) && !isNaN(data2)))) && (typeof data2 !== "string")){
const err2 = {instancePath:instancePath+"/top_n",schemaPath:"#/properties/top_n/type",keyword:"type",params:{type: schema31.properties.top_n.type},message:"must be integer,string",schema:schema31.properties.top_n.type,parentSchema:schema31.properties.top_n,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
}
else {
const err3 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"searxng_url":true,"top_n":true},"dynamicProps":false,"dynamicItems":false};

