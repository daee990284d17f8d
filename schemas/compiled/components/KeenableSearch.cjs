// Generated from schemas/components/KeenableSearch.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/KeenableSearch.schema.json","title":"KeenableSearch params","description":"Web search with Keenable (RAGFlow KeenableSearchParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content, json.","type":"object","properties":{"query":{"type":"string","description":"Search keywords. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"site":{"type":"string","description":"Restrict results to one domain."},"api_key":{"type":"string","description":"Keenable API key; empty uses the keyless public endpoint (the realtime mode needs a key)."},"mode":{"type":"string","description":"pro (default, deeper) or realtime (low latency).","enum":["pro","realtime"]},"top_n":{"type":["integer","string"],"description":"Number of results (> 0, default 10)."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/KeenableSearch.schema.json" */;
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
if(data.site !== undefined){
let data1 = data.site;
if(typeof data1 !== "string"){
const err1 = {instancePath:instancePath+"/site",schemaPath:"#/properties/site/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.site.type,parentSchema:schema31.properties.site,data:data1};
if(vErrors === null){
vErrors = [err1];
}
else {
vErrors.push(err1);
}
errors++;
}
}
if(data.api_key !== undefined){
let data2 = data.api_key;
if(typeof data2 !== "string"){
const err2 = {instancePath:instancePath+"/api_key",schemaPath:"#/properties/api_key/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.api_key.type,parentSchema:schema31.properties.api_key,data:data2};
if(vErrors === null){
vErrors = [err2];
}
else {
vErrors.push(err2);
}
errors++;
}
}
if(data.mode !== undefined){
let data3 = data.mode;
if(typeof data3 !== "string"){
const err3 = {instancePath:instancePath+"/mode",schemaPath:"#/properties/mode/type",keyword:"type",params:{type: "string"},message:"must be string",schema:schema31.properties.mode.type,parentSchema:schema31.properties.mode,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
if(!((data3 === "pro") || (data3 === "realtime"))){
const err4 = {instancePath:instancePath+"/mode",schemaPath:"#/properties/mode/enum",keyword:"enum",params:{allowedValues: schema31.properties.mode.enum},message:"must be equal to one of the allowed values",schema:schema31.properties.mode.enum,parentSchema:schema31.properties.mode,data:data3};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
}
if(data.top_n !== undefined){
let data4 = data.top_n;
if((!((typeof data4 == "number") && (!(data4 % 1) && !isNaN(data4)))) && (typeof data4 !== "string")){
const err5 = {instancePath:instancePath+"/top_n",schemaPath:"#/properties/top_n/type",keyword:"type",params:{type: schema31.properties.top_n.type},message:"must be integer,string",schema:schema31.properties.top_n.type,parentSchema:schema31.properties.top_n,data:data4};
if(vErrors === null){
vErrors = [err5];
}
else {
vErrors.push(err5);
}
errors++;
}
}
}
else {
const err6 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err6];
}
else {
vErrors.push(err6);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"site":true,"api_key":true,"mode":true,"top_n":true},"dynamicProps":false,"dynamicItems":false};

