// Generated from schemas/components/BGPT.schema.json by `npm run schemas:compile`; do not edit.
"use strict";
module.exports = validate20;
module.exports.default = validate20;
const schema31 = {"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"https://canvasflow.dev/schemas/components/BGPT.schema.json","title":"BGPT params","description":"Scientific evidence search with BGPT (RAGFlow BGPTParam). Usable as an Agent tool and as a canvas node. Outputs: formalized_content, json.","type":"object","properties":{"query":{"type":"string","description":"A natural-language scientific question. As a canvas node: a reference (\"sys.query\", \"cpn@var\") or text with {references}. As an Agent tool the model supplies it."},"top_n":{"type":["integer","string"],"description":"Number of results (> 0, default 10)."},"api_key":{"type":"string","description":"BGPT API key; optional."},"days_back":{"type":["integer","string","null"],"description":"Only papers from the last N days (> 0); empty: any date."}}};

function validate20(data, {instancePath="", parentData, parentDataProperty, rootData=data, dynamicAnchors={}}={}){
/*# sourceURL="https://canvasflow.dev/schemas/components/BGPT.schema.json" */;
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
if(data.top_n !== undefined){
let data1 = data.top_n;
if((!((typeof data1 == "number") && (!(data1 % 1) && !isNaN(data1)))) && (typeof data1 !== "string")){
const err1 = {instancePath:instancePath+"/top_n",schemaPath:"#/properties/top_n/type",keyword:"type",params:{type: schema31.properties.top_n.type},message:"must be integer,string",schema:schema31.properties.top_n.type,parentSchema:schema31.properties.top_n,data:data1};
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
if(data.days_back !== undefined){
let data3 = data.days_back;
if(((!((typeof data3 == "number") && (!(data3 % 1) && !isNaN(data3)))) && (typeof data3 !== "string")) && (data3 !== null)){
const err3 = {instancePath:instancePath+"/days_back",schemaPath:"#/properties/days_back/type",keyword:"type",params:{type: schema31.properties.days_back.type},message:"must be integer,string,null",schema:schema31.properties.days_back.type,parentSchema:schema31.properties.days_back,data:data3};
if(vErrors === null){
vErrors = [err3];
}
else {
vErrors.push(err3);
}
errors++;
}
}
}
else {
const err4 = {instancePath,schemaPath:"#/type",keyword:"type",params:{type: "object"},message:"must be object",schema:schema31.type,parentSchema:schema31,data};
if(vErrors === null){
vErrors = [err4];
}
else {
vErrors.push(err4);
}
errors++;
}
validate20.errors = vErrors;
return errors === 0;
}
validate20.evaluated = {"props":{"query":true,"top_n":true,"api_key":true,"days_back":true},"dynamicProps":false,"dynamicItems":false};

